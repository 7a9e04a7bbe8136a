//! The limit and sandbox options (`cli::limit_flags`): one set in a single
//! run, `record`, `grade`, `match` and `tournament`, applied to every bot
//! each command starts; `--sandbox require` stops a command before any bot
//! starts on a system that lacks a layer.

use crate::common;

use assert_cmd::Command;
use common::*;
use serde_json::Value;
use std::path::Path;

fn protocheck(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .timeout(std::time::Duration::from_secs(240))
        .output()
        .unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Every command that starts bots, with `extra` where its options go.
fn every_command(dir: &Path, extra: &[&str]) -> Vec<(&'static str, Vec<String>)> {
    let correct = bot("kalah-correct");
    let out = dir.join("out").display().to_string();
    let scenario = dir.join("recorded.yaml").display().to_string();
    let words = |list: &[&str]| -> Vec<String> { list.iter().map(|w| w.to_string()).collect() };
    let with = |mut args: Vec<String>| {
        args.extend(words(extra));
        args
    };
    vec![
        ("run", with(words(&[&correct, "--game", "kalah"]))),
        (
            "record",
            with(words(&[
                "record", "--game", "kalah", &correct, "-o", &scenario,
            ])),
        ),
        (
            "match",
            with(words(&["match", "--game", "kalah", &correct, &correct])),
        ),
        (
            "tournament",
            with(words(&[
                "tournament",
                "--game",
                "kalah",
                "--out",
                &out,
                &correct,
                &correct,
            ])),
        ),
        // Grade's own flags come before `--`.
        ("grade", {
            let mut args = words(&["grade", "--out", &out]);
            args.extend(words(extra));
            args.extend(words(&[&correct, "--", "--game", "kalah"]));
            args
        }),
    ]
}

#[test]
fn a_match_applies_the_memory_limit_it_is_given() {
    let (code, report, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "kalah",
            &bot("kalah-correct"),
            &bot("hostile-memory-balloon"),
            "--timeout",
            "10s",
            "--memory-limit",
            "256M",
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_eq!(game["forfeit"]["bot"], "hostile-memory-balloon", "{game:#}");
    // The limit is the cause, not a crash: protocheck's kill (or the
    // allocation the limit refused) is no bug of the bot's own.
    assert_eq!(game["forfeit"]["rule"], "io.resource-limit", "{game:#}");
    // Without the limit the balloon holds its 4 GiB and times out.
    assert!(
        limit_found(game, "hostile-memory-balloon", "256 MiB"),
        "{game:#}"
    );
}

#[test]
fn a_match_takes_the_exit_grace_of_a_single_run() {
    let (code, report, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "kalah",
            &bot("kalah-correct"),
            &bot("kalah-lingers"),
            "--exit-grace",
            "300ms",
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(code, 0, "a warning only: {report:#}\n{stderr}");
    let game = &report["games"][0];
    let lingered = game["findings"].as_array().unwrap().iter().any(|f| {
        f["bot"] == "kalah-lingers"
            && f["rule"] == "io.no-exit"
            && f["message"] == "the bot was still running 300ms after END"
    });
    assert!(lingered, "{game:#}");
}

/// Whether `bot` got `io.resource-limit` in `game`, its message saying `what`.
fn limit_found(game: &Value, bot: &str, what: &str) -> bool {
    game["findings"].as_array().unwrap().iter().any(|f| {
        f["bot"] == bot
            && f["rule"] == "io.resource-limit"
            && f["message"].as_str().unwrap_or_default().contains(what)
    })
}

#[test]
fn a_tournament_applies_the_process_limit_it_is_given() {
    let dir = tempdir();
    let out = dir.join("t").display().to_string();
    let (code, _, stderr) = protocheck_json(
        &[
            "tournament",
            "--game",
            "kalah",
            "--timeout",
            "10s",
            "--max-processes",
            "16",
            "--format",
            "json",
            "--out",
            &out,
            &bot("kalah-correct"),
            &bot("hostile-fork-bomb"),
        ],
        &[],
    );
    assert_eq!(code, 1, "{stderr}");
    let matches = std::fs::read_dir(dir.join("t/matches"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect::<Vec<_>>();
    assert_eq!(matches.len(), 2, "{matches:?}");
    for file in matches {
        let game = &read_json(&file)["games"][0];
        assert_eq!(game["forfeit"]["bot"], "hostile-fork-bomb", "{game:#}");
        assert!(
            limit_found(game, "hostile-fork-bomb", "limit of 16"),
            "{game:#}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_sandbox_mode_is_a_usage_error_everywhere() {
    let dir = tempdir();
    for (command, args) in every_command(&dir, &["--sandbox", "bogus"]) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = protocheck(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        let said = stderr(&out);
        assert!(
            said.contains("invalid value 'bogus' for '--sandbox <MODE>'")
                && said.contains("auto, require, off"),
            "{command}: {said}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_path_to_allow_that_does_not_exist_is_a_usage_error_naming_it() {
    let dir = tempdir();
    for (command, args) in every_command(&dir, &["--allow-read", "/no/such/folder"]) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = protocheck(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        let said = stderr(&out);
        assert!(
            said.contains("'/no/such/folder'") && said.contains("no such file or folder"),
            "{command}: {said}"
        );
    }
    // Also among grade's run options (after `--`).
    let out = protocheck(
        &dir,
        &[
            "grade",
            &bot("kalah-correct"),
            "--",
            "--game",
            "kalah",
            "--allow-read",
            "/no/such/folder",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("/no/such/folder"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `protocheck` with Landlock hidden: a seccomp filter answers
/// `landlock_create_ruleset` with ENOSYS, as a kernel without Landlock
/// does. The code under test is unchanged; only its system is older.
#[cfg(target_os = "linux")]
fn without_landlock(dir: &Path, args: &[String]) -> std::process::Output {
    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter};
    use std::os::unix::process::CommandExt;
    let filter = SeccompFilter::new(
        [(libc::SYS_landlock_create_ruleset, vec![])]
            .into_iter()
            .collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        std::env::consts::ARCH.try_into().unwrap(),
    )
    .unwrap();
    let program: BpfProgram = filter.try_into().unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_protocheck"));
    command
        .current_dir(dir)
        .args(args)
        .stdin(std::process::Stdio::null());
    // SAFETY: between fork and exec only prctl and seccomp run (no
    // allocation): the program was built before the fork.
    unsafe {
        command.pre_exec(move || {
            seccompiler::apply_filter(&program).map_err(|e| std::io::Error::other(e.to_string()))
        });
    }
    command.output().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn require_stops_every_command_before_any_bot_where_a_layer_is_missing() {
    let dir = tempdir();
    for (command, args) in every_command(&dir, &["--sandbox", "require"]) {
        let out = without_landlock(&dir, &args);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {said}");
        assert!(
            said.contains(
                "error: --sandbox require: this system cannot confine files, tcp, signals"
            ),
            "{command}: {said}"
        );
        // Nothing ran: no report, no scenario, no output folder.
        assert!(
            out.stdout.is_empty(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(!dir.join("out").exists(), "{command}");
        assert!(!dir.join("recorded.yaml").exists(), "{command}");
    }
    // `auto` on the same system runs, without the missing layers.
    let out = without_landlock(
        &dir,
        &[
            bot("kalah-correct"),
            "--game".into(),
            "kalah".into(),
            "--filter".into(),
            "opening".into(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `submissions/<id>/bot`, a copy of the sample bot `example`.
fn submit(class: &Path, id: &str, example: &str) {
    let dir = class.join("submissions").join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(bot(example), dir.join("bot")).unwrap();
}

#[test]
fn grade_gives_its_limit_and_sandbox_flags_to_every_bots_run() {
    let class = tempdir();
    submit(&class, "balloon", "hostile-memory-balloon");
    submit(&class, "correct", "kalah-correct");
    let out = protocheck(
        &class,
        &[
            "grade",
            "--sandbox",
            "off",
            "--memory-limit",
            "256M",
            "submissions/balloon/bot",
            "submissions/correct/bot",
            "--",
            "--game",
            "kalah",
            "--filter",
            "opening",
            "--timeout",
            "10s",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let grades = read_json(&class.join("grades/grades.json"));
    let rows = grades["bots"].as_array().unwrap();
    // The limit reached the balloon's run: its verdict is the limit's.
    let balloon = rows.iter().find(|r| r["id"] == "balloon").unwrap();
    assert_eq!(balloon["status"], "failed", "{balloon:#}");
    // Without the limit the balloon holds its 4 GiB and times out.
    assert!(
        balloon["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "io.resource-limit"),
        "{balloon:#}"
    );
    let correct = rows.iter().find(|r| r["id"] == "correct").unwrap();
    assert_eq!(correct["status"], "passed", "{correct:#}");
    // What every bot was graded with, as the table and each bot's kept
    // grade record it (the words its protocheck was given).
    let words = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect()
    };
    let has = |list: &[String], pair: [&str; 2]| list.windows(2).any(|w| w == pair);
    let table = words(&grades["options"]);
    assert!(has(&table, ["--sandbox", "off"]), "{table:?}");
    for id in ["balloon", "correct"] {
        let kept = read_json(&class.join(format!("grades/{id}/grade.json")));
        let given = words(&kept["signature"]["options"]);
        assert!(has(&given, ["--sandbox", "off"]), "{id}: {given:?}");
        assert!(
            has(&given, ["--memory-limit", &(256u64 << 20).to_string()]),
            "{id}: {given:?}"
        );
    }
    // The same flag on both sides of `--` is refused before anything runs.
    let out = protocheck(
        &class,
        &[
            "grade",
            "--out",
            "twice",
            "--sandbox",
            "off",
            "submissions/correct/bot",
            "--",
            "--game",
            "kalah",
            "--sandbox",
            "auto",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--sandbox is given both before `--` and after it"),
        "{}",
        stderr(&out)
    );
    assert!(!class.join("twice/correct").exists());
    let _ = std::fs::remove_dir_all(&class);
}
