//! `protocheck record` with its input piped (no terminal): every registered
//! game records with the generic `send:`/`expect:`/`play:` steps, and the
//! file replays to the verdicts seen while recording.

use crate::common;
use common::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn output_file(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-record-generic-{test}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{test}.yaml"))
}

/// Record with `typed` as the user's input; stdout of the recorder.
fn record(game: &str, bot_name: &str, output: &Path, typed: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args(["record", "--game", game, &bot(bot_name), "--output"])
        .arg(output)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(typed.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn lints_clean(game: &str, file: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args(["lint", "--game", game])
        .arg(file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn dominion_sexp_records_a_scripted_deal_and_generated_play() {
    let scenario = std::fs::read_to_string(format!(
        "{}/scenarios/dominion-sexp/13-mine-silver-to-gold.yaml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let deal = scenario
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("- send: \"")
                .and_then(|m| m.strip_suffix('"'))
        })
        .expect("the built-in scenario starts with a deal")
        .to_string();
    let file = output_file("dsx");
    let shown = record(
        "dominion-sexp",
        "dsx-correct",
        &file,
        &format!("send: {deal}\nplay: to-end\n"),
    );
    assert!(shown.contains("ok: the reply is legal"), "{shown}");
    assert!(shown.contains("steps, passed)"), "{shown}");
    lints_clean("dominion-sexp", &file);
    let replayed = run_json(
        &[
            "--game",
            "dominion-sexp",
            &bot("dsx-correct"),
            "--scenarios",
            file.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(
        replayed.statuses(),
        vec!["passed"],
        "{}",
        findings(&replayed.report).join("\n")
    );
}

#[test]
fn evolution_records_the_sign_up_of_a_bot_that_speaks_first() {
    let file = output_file("evo");
    // `"ok"` is protocheck's own answer to the sign-up: refused, not sent.
    let shown = record("evolution", "evo-correct", &file, "send: \"ok\"\nquit\n");
    assert!(shown.contains("< \"evo-correct\""), "{shown}");
    assert!(shown.contains("refused, not sent:"), "{shown}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("- expect: legal-move"), "{text}");
    assert!(!text.contains("send:"), "{text}");
    lints_clean("evolution", &file);
    let replayed = run_json(
        &[
            "--game",
            "evolution",
            &bot("evo-correct"),
            "--scenarios",
            file.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(
        replayed.statuses(),
        vec!["passed"],
        "{}",
        findings(&replayed.report).join("\n")
    );
}

#[test]
fn a_bot_that_dies_at_start_leaves_nothing_to_write() {
    let file = output_file("dies");
    let out = Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args(["record", "--game", "kalah", "/bin/true", "--output"])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    // The verdict is shown once, and no empty scenario is written.
    assert_eq!(stdout.matches("FAIL io.crash").count(), 1, "{stdout}");
    assert!(stderr.contains("nothing was recorded"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!file.exists());
}
