//! A student's first hour with protocheck (issue 19): installing it, naming
//! the bot the way one would, reading a timeout, other board sizes, a report
//! that is not mostly noise, and the small things machine formats and
//! completions get wrong.

use crate::common;
use assert_cmd::Command;
use common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn protocheck() -> Command {
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    // The reports read the same whoever runs the tests (no line about a
    // PYTHONUNBUFFERED of the test runner's left out of the bot's).
    cmd.with_fixed_environment();
    cmd
}

/// A fresh empty folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-first-hour-{test}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_file(path: &Path, text: &str, mode: u32) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// ── 1. install step and Rust version ─────────────────────────────────────

#[test]
fn the_readme_installs_protocheck_before_its_first_bare_use_and_names_the_rust_version() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap()).unwrap();
    let rust_version = manifest["package"]
        .get("rust-version")
        .and_then(|v| v.as_str())
        .expect("Cargo.toml names the Rust version it needs (rust-version)");
    // The two set-up commands stay the very first commands.
    let first_block = readme.split("```sh\n").nth(1).unwrap();
    assert!(
        first_block
            .starts_with("cargo build --release --bins --examples && ./target/release/protocheck")
            && first_block.lines().nth(1) == Some("cargo test"),
        "{first_block}"
    );
    let install = readme
        .find("cargo install --locked --path .")
        .expect("the README gives the install command");
    let first_bare = readme
        .lines()
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len() + 1;
            Some((start, line))
        })
        .find(|(_, line)| line.starts_with("protocheck "))
        .map(|(at, _)| at)
        .unwrap();
    assert!(
        install < first_bare,
        "install comes after the first bare `protocheck`"
    );
    assert!(
        readme[..first_bare].contains(&format!("Rust {rust_version} or newer")),
        "the README names rust-version {rust_version} before the examples"
    );
    // The version is not a guess below what a dependency asks for:
    // serde-saphyr 2 needs 1.89, and the code uses let-chains (1.88).
    let parts: Vec<u32> = rust_version
        .split('.')
        .map(|p| p.parse().unwrap())
        .collect();
    assert!(parts[..2] >= [1, 89][..], "{rust_version}");
}

// ── 3. naming the bot ────────────────────────────────────────────────────

#[test]
fn a_file_in_the_current_folder_named_without_dot_slash_is_that_file() {
    let dir = folder("bare-name");
    // The script and the program it runs sit in the bot's own folder, as
    // a submission does (the sandbox lets a bot run only what its folders
    // and the system hold).
    std::fs::copy(bot("kalah-correct"), dir.join("kalah-correct")).unwrap();
    write_file(
        &dir.join("kalah_bot.sh"),
        "#!/bin/sh\nexec ./kalah-correct \"$@\"\n",
        0o755,
    );
    let out = protocheck()
        .current_dir(&dir)
        .args([
            "--game",
            "kalah",
            "--filter",
            "north-opening-1",
            "kalah_bot.sh",
        ])
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("bot ./kalah_bot.sh"), "{stdout}");
    assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
}

#[test]
fn a_script_that_is_not_executable_is_refused_with_the_command_that_works() {
    let dir = folder("not-executable");
    write_file(&dir.join("kalah_bot.py"), "print('MOVE;1')\n", 0o644);
    let out = protocheck()
        .current_dir(&dir)
        .args(["--game", "kalah", "kalah_bot.py"])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line of diagnosis: {stderr}");
    assert!(stderr.contains("it is not executable"), "{stderr}");
    assert!(
        stderr.contains("--bot-cmd 'python3 kalah_bot.py'"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "no scenario ran");
    // `record` starts a bot the same way.
    let out = protocheck()
        .current_dir(&dir)
        .args([
            "record",
            "--game",
            "kalah",
            "kalah_bot.py",
            "--output",
            "x.yaml",
        ])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--bot-cmd 'python3 kalah_bot.py'"),
        "{stderr}"
    );
}

#[test]
fn an_executable_script_without_hash_bang_is_refused_before_any_scenario_runs() {
    let dir = folder("no-hash-bang");
    write_file(
        &dir.join("kalah_bot.py"),
        "import sys\nprint('MOVE;1')\n",
        0o755,
    );
    let out = protocheck()
        .current_dir(&dir)
        .args(["--game", "kalah", "./kalah_bot.py"])
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line of diagnosis: {stderr}");
    assert!(stderr.contains("starting with `#!`"), "{stderr}");
    assert!(
        stderr.contains("--bot-cmd 'python3 kalah_bot.py'"),
        "{stderr}"
    );
    assert!(!stdout.contains("io.crash"), "no scenario ran: {stdout}");
}

#[test]
fn a_folder_given_as_the_bot_is_refused_as_a_folder() {
    let dir = folder("folder-bot");
    std::fs::create_dir_all(dir.join("mybot")).unwrap();
    let out = protocheck()
        .current_dir(&dir)
        .args(["--game", "kalah", "mybot"])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("`./mybot`: it is a folder"), "{stderr}");
    assert!(stderr.contains("--bot-cmd"), "{stderr}");
}

// ── 5. explain says flush ────────────────────────────────────────────────

#[test]
fn explain_io_timeout_names_flushing_with_the_line_for_each_language() {
    let out = protocheck()
        .args(["explain", "io.timeout"])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let games = stdout.matches("io.timeout  (game: ").count();
    assert!(games >= 5, "{stdout}");
    assert_eq!(
        stdout.matches("flush:  ").count(),
        games,
        "every game's version: {stdout}"
    );
    for line in [
        "print(reply, flush=True)",
        "out.flush();",
        "fflush(stdout);",
        "std::cout << reply << std::endl;",
    ] {
        assert_eq!(stdout.matches(line).count(), games, "{line}: {stdout}");
    }
    // A no-reply finding of a game's own says it too.
    let out = protocheck()
        .args(["explain", "kalah.turn.missed-turn"])
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).contains("fflush(stdout);"),
        "{}",
        text(&out.stdout)
    );
    // A rule about a wrong reply does not.
    let out = protocheck()
        .args(["explain", "kalah.move.empty-hole"])
        .output()
        .unwrap();
    assert!(
        !text(&out.stdout).contains("flush:"),
        "{}",
        text(&out.stdout)
    );
}

// ── 6. --all-sizes: a 7-hole move on a small board ───────────────────────

#[test]
fn a_seven_hole_opening_on_a_one_hole_board_says_start_does_not_tell_the_size() {
    let dir = folder("all-sizes");
    let script = dir.join("opens_with_seven.sh");
    write_file(
        &script,
        "#!/bin/sh\nread line\necho 'MOVE;7'\nread line\n",
        0o755,
    );
    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "--all-sizes",
            "--filter",
            "end-on-bot-opening",
            "--color",
            "never",
            script.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("kalah.move.hole-range"), "{stdout}");
    assert!(
        stdout.contains("hole 7 is outside 1..1 for Kalah(1)."),
        "{stdout}"
    );
    assert!(
        stdout.contains("`START;South` and `START;North` do not tell the board size"),
        "{stdout}"
    );
    assert!(stdout.contains("its own settings"), "{stdout}");
}

// ── 7. the default report: grouped skips, -q, -v ─────────────────────────

fn kalah_correct_report(extra: &[&str]) -> String {
    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "--color",
            "never",
            "--filter",
            "*opening*",
        ])
        .args(extra)
        .arg(bot("kalah-correct"))
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    stdout
}

#[test]
fn the_default_report_groups_skips_in_one_line_and_keeps_listened_for_verbose() {
    let stdout = kalah_correct_report(&[]);
    let skip_lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("SKIP")).collect();
    assert_eq!(skip_lines.len(), 1, "{stdout}");
    let skipped: usize = stdout
        .lines()
        .last()
        .and_then(|l| l.split(", ").find(|p| p.ends_with(" skipped")))
        .and_then(|p| p.trim_end_matches(" skipped").parse().ok())
        .expect("the summary counts the skips");
    assert!(skipped > 1, "{stdout}");
    assert!(
        skip_lines[0].starts_with(&format!("SKIP  {skipped} scenarios (")),
        "{stdout}"
    );
    assert!(skip_lines[0].contains("run with --all-sizes"), "{stdout}");
    assert!(!stdout.contains("listened"), "{stdout}");

    let verbose = kalah_correct_report(&["-v"]);
    assert_eq!(
        verbose.lines().filter(|l| l.starts_with("SKIP")).count(),
        skipped,
        "{verbose}"
    );
    assert!(verbose.contains("listened "), "{verbose}");
}

#[test]
fn quiet_prints_the_failures_and_the_summary_only() {
    let quiet = kalah_correct_report(&["-q"]);
    assert!(!quiet.contains("PASS"), "{quiet}");
    assert!(!quiet.contains("SKIP"), "{quiet}");
    assert!(!quiet.contains("protocheck 0."), "{quiet}");
    // The score, the coverage and the sandbox line (said once per run,
    // also with -q), then the summary.
    let lines: Vec<&str> = quiet.trim().lines().collect();
    assert_eq!(lines.len(), 4, "{quiet}");
    assert!(lines[0].starts_with("score: "), "{quiet}");
    assert!(lines[1].starts_with("coverage: "), "{quiet}");
    assert!(lines[2].starts_with("sandbox: "), "{quiet}");
    assert!(lines[3].contains(" passed, 0 failed"), "{quiet}");

    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "-q",
            "--color",
            "never",
            "--filter",
            "south-first-move",
        ])
        .arg(bot("kalah-zero-based"))
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL"), "{stdout}");
    assert!(stdout.contains("kalah.move.hole-range"), "{stdout}");
    assert!(!stdout.contains("PASS"), "{stdout}");
}

// ── 10. machine formats, --list, completions, JUnit paths, locations ─────

#[test]
fn list_with_a_filter_that_selects_nothing_exits_2_like_a_run() {
    let out = protocheck()
        .args(["--game", "kalah", "--list", "--filter", "zzz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no scenario selected"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bash_completion_offers_the_game_names_for_game() {
    let out = protocheck().args(["completions", "bash"]).output().unwrap();
    let script = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    let mut words = protocheck::games::ids();
    words.sort_unstable();
    // The `--game)` case of the top level completes with the game names.
    let case = script
        .split("--game)")
        .nth(1)
        .and_then(|rest| rest.split(";;").next())
        .expect("a --game case");
    let compgen = case
        .split("compgen -W \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("");
    let mut offered: Vec<&str> = compgen.split_whitespace().collect();
    offered.sort_unstable();
    assert_eq!(offered, words, "{case}");
}

#[test]
fn junit_names_a_real_file_for_user_scenarios_and_none_for_built_in_ones() {
    let scenario = fixture("kalah/snapshot-fail.yaml");
    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "--format",
            "junit",
            "--scenarios",
            &scenario,
            "--with-builtin",
            "--filter",
            "*south-first-move",
        ])
        .arg(bot("kalah-correct"))
        .output()
        .unwrap();
    let xml = text(&out.stdout);
    let files: Vec<&str> = xml
        .split(" file=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert!(!files.is_empty(), "{xml}");
    for file in &files {
        assert!(
            Path::new(file).is_file(),
            "file=\"{file}\" is not a file: {xml}"
        );
    }
    // The built-in `south-first-move` ran too, with no file of its own.
    assert_eq!(xml.matches("<testcase ").count(), 2, "{xml}");
    assert_eq!(files.len(), 1, "{xml}");
}

#[test]
fn a_generated_game_is_located_by_the_options_that_replay_it() {
    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "--games",
            "1",
            "--seed",
            "804090",
            "--filter",
            "generated-*",
            "--color",
            "never",
        ])
        .arg(bot("kalah-zero-based"))
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains(":0:0"), "{stdout}");
    assert!(
        stdout.contains("  generated: --seed 804090 --games 1  kalah."),
        "{stdout}"
    );
}

#[test]
fn a_machine_report_on_stdout_still_tells_the_terminal_how_it_went() {
    // `script` gives protocheck a terminal for stderr while stdout goes to
    // a file, as in `protocheck --format json > report.json`.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    }
    let dir = folder("summary-on-terminal");
    let report = dir.join("report.json");
    let command = format!(
        "{} --game kalah --format json --filter north-opening-1 {} > {}",
        env!("CARGO_BIN_EXE_protocheck"),
        bot("kalah-correct"),
        report.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    let terminal = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{terminal}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert!(json["scenarios"].is_array());
    assert!(
        terminal.lines().any(
            |l| l.trim_end().ends_with(" passed, 0 failed") || l.contains(" passed, 0 failed,")
        ),
        "the summary line on the terminal: {terminal:?}"
    );
    // Without a terminal, stderr stays as it was.
    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "--format",
            "json",
            "--filter",
            "north-opening-1",
        ])
        .arg(bot("kalah-correct"))
        .output()
        .unwrap();
    assert!(
        !text(&out.stderr).contains(" passed, "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn version_names_the_commit_and_target_and_reports_carry_the_same_string() {
    // `protocheck 0.1.0 (1a2b3c4d5e6f x86_64-unknown-linux-gnu)`: a report
    // sent in by a student or a grader can be traced to its exact build.
    let out = protocheck().arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let printed = text(&out.stdout);
    let long = regex::Regex::new(
        r"^protocheck (\d+\.\d+\.\d+ \((?:[0-9a-f]{7,40}|unknown commit) [\w.-]+-[\w.-]+\))\n$",
    )
    .unwrap()
    .captures(&printed)
    .unwrap_or_else(|| panic!("{printed:?}"))[1]
        .to_string();
    assert_eq!(long, protocheck::build_info::LONG);
    // Built in this checkout without an override: the commit is HEAD's
    // (build.rs runs again when HEAD moves, so it is never an older one).
    let head = std::process::Command::new("git")
        .args([
            "-C",
            env!("CARGO_MANIFEST_DIR"),
            "rev-parse",
            "--short=12",
            "HEAD",
        ])
        .output();
    if option_env!("PROTOCHECK_COMMIT").is_none()
        && let Ok(head) = head
        && head.status.success()
    {
        assert_eq!(protocheck::build_info::COMMIT, text(&head.stdout).trim());
    }
    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "--format",
            "json",
            "--filter",
            "north-opening-1",
        ])
        .arg(bot("kalah-correct"))
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["protocheck"], long.as_str(), "{}", text(&out.stdout));
    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "--filter",
            "north-opening-1",
            "--color",
            "never",
        ])
        .arg(bot("kalah-correct"))
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).starts_with(&format!("protocheck {long} · game kalah")),
        "{}",
        text(&out.stdout)
    );
}
