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

/// A class folder with the never-flushing bot as `submissions/py/bot`.
fn class_with_the_python_bot() -> std::path::PathBuf {
    let class = std::env::temp_dir().join(format!(
        "protocheck-bot-env-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    let dir = class.join("submissions").join("py");
    std::fs::create_dir_all(&dir).unwrap();
    let bot = dir.join("bot");
    std::fs::copy(common::fixture("kalah/python/never_flushes.py"), &bot).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    class
}

/// `grade` starts each bot through its own protocheck, which applies the
/// same policy; `--pass-env` is a run option like any other.
#[test]
fn grade_judges_the_bot_without_the_graders_pythonunbuffered() {
    if !python_available() {
        eprintln!("skipped: no python3 on this machine");
        return;
    }
    let class = class_with_the_python_bot();
    let scenario = common::fixture("kalah/one-move.yaml");
    let grade = |extra: &[&str]| {
        let out = Command::cargo_bin("protocheck")
            .unwrap()
            .current_dir(&class)
            .env("PYTHONUNBUFFERED", "1")
            .args(["grade", "--out", "grades", "submissions/*/bot", "--"])
            .args([
                "--game",
                "kalah",
                "--scenarios",
                &scenario,
                "--timeout",
                "1s",
            ])
            .args(extra)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        let grades = json(&std::fs::read_to_string(class.join("grades/grades.json")).unwrap());
        let report = json(&std::fs::read_to_string(class.join("grades/py/report.json")).unwrap());
        (
            out,
            grades["bots"][0]["status"].as_str().unwrap().to_string(),
            report["environment"].clone(),
        )
    };
    let (out, status, environment) = grade(&[]);
    assert_eq!(status, "failed", "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        environment["removed"],
        serde_json::json!(["PYTHONUNBUFFERED"])
    );
    let (out, status, environment) = grade(&["--pass-env", "PYTHONUNBUFFERED"]);
    assert_eq!(status, "passed", "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        environment["passed"],
        serde_json::json!(["PYTHONUNBUFFERED"])
    );
    let _ = std::fs::remove_dir_all(&class);
}

/// `match` seats each bot with the same policy.
#[test]
fn a_match_seats_the_bot_without_protochecks_pythonunbuffered() {
    if !python_available() {
        eprintln!("skipped: no python3 on this machine");
        return;
    }
    let class = class_with_the_python_bot();
    let python = class.join("submissions/py/bot").display().to_string();
    let other = common::bot("kalah-correct");
    let play = |extra: &[&str]| {
        let out = Command::cargo_bin("protocheck")
            .unwrap()
            .env("PYTHONUNBUFFERED", "1")
            .args([
                "match",
                "--game",
                "kalah",
                "--timeout",
                "1s",
                "--format",
                "json",
            ])
            .args(extra)
            .args([&python, &other])
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = play(&[]);
    assert_eq!(code, Some(1), "the bot forfeits: {stderr}");
    assert!(
        stderr.contains("bot environment: PYTHONUNBUFFERED left out"),
        "{stderr}"
    );
    let (code, stderr) = play(&["--pass-env", "PYTHONUNBUFFERED"]);
    assert_eq!(code, Some(0), "{stderr}");
    let _ = std::fs::remove_dir_all(&class);
}
