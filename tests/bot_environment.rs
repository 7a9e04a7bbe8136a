//! The bot's environment does not depend on who runs protocheck (issue 26
//! point 3): a Python bot that never flushes fails the same whether or not
//! PYTHONUNBUFFERED=1 is in protocheck's environment (Docker images, IDE
//! terminals and CI runners set it), and `--pass-env PYTHONUNBUFFERED`
//! passes it on purpose. The report says what was removed.

mod common;
use assert_cmd::Command;
use serde_json::Value;

fn python_available() -> bool {
    std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// One run of the never-flushing bot on a one-move scenario, with
/// PYTHONUNBUFFERED=1 in protocheck's environment or without it.
fn run(unbuffered: bool, extra: &[&str], format: &str) -> (i32, String) {
    let bot = common::fixture("kalah/python/never_flushes.py");
    let scenario = common::fixture("kalah/one-move.yaml");
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    cmd.args([
        "--game",
        "kalah",
        "--scenarios",
        &scenario,
        "--timeout",
        "1s",
    ])
    .args(["--color", "never", "--format", format])
    .args(extra)
    .args(["--bot-cmd", &format!("python3 {bot}")]);
    for switch in [
        "PYTHONUNBUFFERED",
        "PYTHONIOENCODING",
        "_STDBUF_O",
        "JAVA_TOOL_OPTIONS",
    ] {
        cmd.env_remove(switch);
    }
    if unbuffered {
        cmd.env("PYTHONUNBUFFERED", "1");
    }
    let out = cmd
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn a_never_flushing_python_bot_gets_the_same_verdict_with_and_without_pythonunbuffered() {
    if !python_available() {
        eprintln!("skipped: no python3 on this machine");
        return;
    }
    let (plain_code, plain) = run(false, &[], "json");
    let (set_code, set) = run(true, &[], "json");
    let verdict = |report: &Value| {
        report["scenarios"][0]["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["rule"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let (plain, set) = (json(&plain), json(&set));
    assert_eq!(plain_code, 1, "{plain:#}");
    assert_eq!(
        set_code, 1,
        "PYTHONUNBUFFERED=1 must not rescue it: {set:#}"
    );
    assert_eq!(verdict(&plain), verdict(&set));
    assert_eq!(plain["environment"]["removed"], serde_json::json!([]));
    assert_eq!(
        set["environment"]["removed"],
        serde_json::json!(["PYTHONUNBUFFERED"])
    );
}

#[test]
fn pass_env_gives_the_bot_the_variable_on_purpose_and_the_report_says_so() {
    if !python_available() {
        eprintln!("skipped: no python3 on this machine");
        return;
    }
    let (code, text) = run(true, &["--pass-env", "PYTHONUNBUFFERED"], "json");
    let report = json(&text);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(
        report["environment"],
        serde_json::json!({"removed": [], "passed": ["PYTHONUNBUFFERED"], "set": []})
    );
    // --env sets it just as well.
    let (code, text) = run(false, &["--env", "PYTHONUNBUFFERED=1"], "json");
    assert_eq!(code, 0, "{text}");
}

#[test]
fn the_human_and_junit_reports_name_what_was_removed() {
    if !python_available() {
        eprintln!("skipped: no python3 on this machine");
        return;
    }
    let (_, human) = run(true, &["-q"], "human");
    assert!(
        human.contains(
            "bot environment: PYTHONUNBUFFERED left out (it changes how a runtime buffers, encodes or adds to its output; --pass-env PYTHONUNBUFFERED keeps it)"
        ),
        "{human}"
    );
    let (_, junit) = run(true, &[], "junit");
    assert!(
        junit.contains("<property name=\"environment.removed\" value=\"PYTHONUNBUFFERED\"/>"),
        "{junit}"
    );
}

#[test]
fn a_bad_env_setting_is_a_usage_error() {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .args(["--game", "kalah", "--env", "NOVALUE", "./bot"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is not NAME=VALUE"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
