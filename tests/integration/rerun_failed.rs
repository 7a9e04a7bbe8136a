//! `--rerun-failed` (issue 19, item 9) as a user meets it: a run records
//! which scenarios failed, `--rerun-failed` runs only those (generated games
//! again from their seed), a fixed bot clears the record, and the record
//! lives beside protocheck.toml or, without one, in the user's cache folder.
//! `init` keeps the record out of git.

use crate::common;
use assert_cmd::Command;
use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A fresh folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("protocheck-rerun-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// protocheck in `dir`, its cache folder `dir/cache` (no user's cache is
/// touched), the sample bots' randomness fixed (passed on by [`run`]).
fn protocheck(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    cmd.current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("KALAH_BOT_SEED", "7")
        .env("KALAH_BOT_SWAP", "never");
    cmd
}

/// Put a sample bot at `dir/my-bot` (replacing the one there: the user
/// fixing their bot).
fn install_bot(dir: &Path, sample: &str) {
    let target = dir.join("my-bot");
    let _ = std::fs::remove_file(&target);
    std::fs::copy(bot(sample), &target).unwrap();
}

struct Run {
    code: i32,
    report: Value,
    stderr: String,
}

impl Run {
    fn names(&self, statuses: &[&str]) -> BTreeSet<String> {
        self.report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| statuses.is_empty() || statuses.contains(&s["status"].as_str().unwrap()))
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    }
}

fn run(cmd: &mut Command, args: &[&str]) -> Run {
    let out = cmd
        .args(args)
        .args([
            "--jobs",
            "2",
            "--format",
            "json",
            "--pass-env",
            "KALAH_BOT_*",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not a JSON report ({e}): {out:?}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        report,
        stderr,
    }
}

/// The bot that ignores swaps fails the scenarios where the opponent swaps,
/// built-in and generated; the rerun runs exactly those; once the bot is fixed,
/// the rerun passes and the next one finds nothing on record.
#[test]
fn a_rerun_runs_only_what_failed_until_the_bot_is_fixed() {
    let dir = folder("project");
    std::fs::write(
        dir.join("protocheck.toml"),
        "game = \"kalah\"\nbot = \"./my-bot\"\ngames = 4\nseed = 3\n",
    )
    .unwrap();
    install_bot(&dir, "kalah-ignores-swap");

    let first = run(&mut protocheck(&dir), &[]);
    assert_eq!(first.code, 1, "{}", first.stderr);
    let failed = first.names(&["failed", "error"]);
    let passed = first.names(&["passed"]);
    assert!(
        !failed.is_empty() && !passed.is_empty(),
        "{failed:?} {passed:?}"
    );
    assert!(
        failed.iter().any(|n| n.starts_with("generated-")),
        "a generated game fails too: {failed:?}"
    );
    assert!(
        !first.stderr.contains("--rerun-failed"),
        "a plain run says nothing of the record: {}",
        first.stderr
    );
    let records: Vec<PathBuf> = std::fs::read_dir(dir.join(".protocheck"))
        .expect("the record sits in .protocheck/ beside protocheck.toml")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    assert!(!dir.join("cache").exists(), "the cache is not used");

    // Another seed on the command line: the record's games are played from
    // their own seed.
    let rerun = run(&mut protocheck(&dir), &["--rerun-failed", "--seed", "99"]);
    assert_eq!(rerun.code, 1, "{}", rerun.stderr);
    assert_eq!(rerun.names(&[]), failed, "only the failed ones run");
    assert_eq!(rerun.names(&["failed", "error"]), failed);
    assert!(
        rerun.stderr.contains(&format!(
            "--rerun-failed: running the {} scenarios that failed last time",
            failed.len()
        )),
        "{}",
        rerun.stderr
    );
    for s in rerun.report["scenarios"].as_array().unwrap() {
        if let Some(replay) = s["replay"].as_str() {
            assert!(
                replay.contains("--seed 3 "),
                "replayed from its seed: {replay}"
            );
        }
    }

    install_bot(&dir, "kalah-correct");
    let fixed = run(&mut protocheck(&dir), &["--rerun-failed"]);
    assert_eq!(fixed.code, 0, "{}", fixed.stderr);
    assert_eq!(fixed.names(&["passed"]), failed);
    assert_eq!(fixed.names(&[]), failed);

    let again = run(&mut protocheck(&dir), &["--rerun-failed"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .stderr
            .contains("--rerun-failed: no previously failed scenarios; running all"),
        "{}",
        again.stderr
    );
    let everything: BTreeSet<String> = failed.union(&passed).cloned().collect();
    assert_eq!(again.names(&["passed", "failed", "error"]), everything);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A failed scenario: its name, its findings' rules and its transcript
/// (each line's direction and text).
type Failure = (String, Vec<String>, Vec<(String, String)>);

/// Each failed scenario of a run.
fn failures(run: &Run) -> Vec<Failure> {
    run.report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "failed")
        .map(|s| {
            let rules = s["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["rule"].as_str().unwrap().to_string())
                .collect();
            let lines = s["transcript"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| (l["dir"].to_string(), l["text"].to_string()))
                .collect();
            (s["name"].as_str().unwrap().to_string(), rules, lines)
        })
        .collect()
}

#[test]
fn a_rerun_plays_a_failed_aimed_game_exactly_as_it_failed() {
    // Seed 7, 8 games: the seventh aims past what the first three reached
    // (docs/coverage.md). Played again alone, as `--rerun-failed` did before
    // it recorded the aims, it aimed elsewhere and failed after 74
    // transcript lines instead of 24: the same rule, another game. Now the
    // record keeps each failed game's aims and the rerun plays them.
    let dir = folder("aimed");
    install_bot(&dir, "kalah-late-blunder");
    let args = [
        "--game",
        "kalah",
        "./my-bot",
        "--games",
        "8",
        "--seed",
        "7",
        "--filter",
        "generated",
    ];
    let first = run(&mut protocheck(&dir), &args);
    assert_eq!(first.code, 1, "{}", first.stderr);
    let failed = failures(&first);
    assert!(
        failed
            .iter()
            .any(|(name, _, _)| name.starts_with("generated-007")),
        "{:?}",
        first.names(&["failed"])
    );
    let rerun = run(
        &mut protocheck(&dir),
        &[&args[..], &["--rerun-failed"]].concat(),
    );
    assert_eq!(rerun.code, 1, "{}", rerun.stderr);
    assert_eq!(
        rerun.names(&[]),
        first.names(&["failed"]),
        "only the failed ones run"
    );
    for ((name, rules, lines), again) in failed.iter().zip(failures(&rerun)) {
        assert_eq!(&again.0, name);
        assert_eq!(&again.1, rules, "{name}: the same failure");
        assert_eq!(&again.2, lines, "{name}: the same moves");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without protocheck.toml the record goes to the user's cache folder, not
/// the folder the run starts in; it is one per bot, so another bot's run
/// does not see it.
#[test]
fn without_a_project_file_the_record_goes_to_the_cache_folder() {
    let dir = folder("cache");
    install_bot(&dir, "kalah-ignores-swap");
    let args = ["--game", "kalah", "./my-bot"];
    let first = run(&mut protocheck(&dir), &args);
    assert_eq!(first.code, 1, "{}", first.stderr);
    assert!(!dir.join(".protocheck").exists());
    let records: Vec<PathBuf> = std::fs::read_dir(dir.join("cache/protocheck"))
        .expect("the record is in $XDG_CACHE_HOME/protocheck")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let record: Value = serde_json::from_slice(&std::fs::read(&records[0]).unwrap()).unwrap();
    let recorded: BTreeSet<String> = record["failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(recorded, first.names(&["failed", "error"]));

    let rerun = run(
        &mut protocheck(&dir),
        &[&["--rerun-failed"], &args[..]].concat(),
    );
    assert_eq!(rerun.names(&[]), recorded);

    // The same suite with another bot: nothing on record for it.
    let other = [
        "--rerun-failed",
        "--game",
        "kalah",
        "--filter",
        "south-first*",
        &bot("kalah-correct"),
    ];
    let out = run(&mut protocheck(&dir), &other);
    assert!(
        out.stderr
            .contains("no previously failed scenarios; running all"),
        "{}",
        out.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A record that cannot be written costs a warning, not the run: the
/// report and the exit status are those of the run.
#[test]
fn a_record_that_cannot_be_written_does_not_fail_the_run() {
    let dir = folder("readonly");
    std::fs::write(
        dir.join("protocheck.toml"),
        "game = \"kalah\"\nbot = \"./my-bot\"\nfilter = \"south-first*\"\n",
    )
    .unwrap();
    install_bot(&dir, "kalah-correct");
    // A file where the folder would go: nothing can be written under it
    // (even by root, unlike permissions).
    std::fs::write(dir.join(".protocheck"), "not a folder").unwrap();
    let out = run(&mut protocheck(&dir), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.names(&["passed"]).is_empty());
    assert!(
        out.stderr
            .contains("warning: cannot record the failed scenarios in"),
        "{}",
        out.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `init` adds `.protocheck/` to the .gitignore, once.
#[test]
fn init_keeps_the_record_out_of_git() {
    let dir = folder("init");
    std::fs::write(dir.join(".gitignore"), "/target\n").unwrap();
    let out = protocheck(&dir)
        .args(["init", "--game", "kalah"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(".gitignore"),
        "{out:?}"
    );
    let out = protocheck(&dir)
        .args(["init", "--game", "kalah", "--force"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
    assert!(text.starts_with("/target\n"), "{text}");
    assert_eq!(
        text.lines().filter(|l| *l == ".protocheck/").count(),
        1,
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--help` and the man page tell of it.
#[test]
fn help_and_man_page_name_the_option() {
    let dir = folder("help");
    for args in [&["--help"][..], &["man"][..]] {
        let out = protocheck(&dir).args(args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).replace("\\-", "-");
        assert!(text.contains("--rerun-failed"), "{args:?}");
        assert!(text.contains(".protocheck/"), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
