//! The bot's environment does not depend on who runs protocheck, and holds
//! none of the grader's secrets (issue 26 point 3, issue 27 point 3): a bot
//! gets a fixed environment (PATH, HOME, the locale, …, docs/environment.md)
//! plus the game's own variables. A Python bot that never flushes fails the
//! same whether or not PYTHONUNBUFFERED=1 is in protocheck's environment
//! (Docker images, IDE terminals and CI runners set it); a CI token in
//! protocheck's environment does not reach the bot; `--pass-env NAME`
//! passes one on purpose. The report names what was kept, left out and
//! passed, never a value.

use crate::common;
use assert_cmd::Command;
use common::FixedEnvironment;
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
    .args(["--bot-cmd", &format!("python3 {bot}")])
    .with_fixed_environment();
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
        serde_json::json!({
            "base": "clean",
            "kept": ["PATH", "HOME"],
            "game": [],
            "removed": [],
            "passed": ["PYTHONUNBUFFERED"],
            "set": []
        })
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
            "bot environment: clean (PATH, HOME); PYTHONUNBUFFERED left out (--pass-env PYTHONUNBUFFERED keeps it)\n"
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
            .with_fixed_environment()
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
            .with_fixed_environment()
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
        stderr
            .contains("protocheck: bot environment: clean (PATH, HOME); PYTHONUNBUFFERED left out"),
        "{stderr}"
    );
    let (code, stderr) = play(&["--pass-env", "PYTHONUNBUFFERED"]);
    assert_eq!(code, Some(0), "{stderr}");
    let _ = std::fs::remove_dir_all(&class);
}

/// What a CI runner's environment holds besides the fixed environment: a
/// job token, a GitHub token, an AWS secret and an I/O switch.
const SECRETS: &[(&str, &str)] = &[
    ("CI_JOB_TOKEN", "glcbt-64_protocheck-test-secret-1"),
    ("GITHUB_TOKEN", "ghp_protocheckTestSecret2"),
    ("AWS_SECRET_ACCESS_KEY", "protocheck/test/secret/3"),
    // Any non-empty value switches Python's buffering off.
    ("PYTHONUNBUFFERED", "protocheck-test-unbuffered"),
];

/// One scenario of `kalah-env-echo` (it writes its environment to stderr)
/// with protocheck's environment PATH, HOME, LANG and [`SECRETS`].
fn echo(extra: &[&str], format: &str) -> (i32, String) {
    let scenario = common::fixture("kalah/one-move.yaml");
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    cmd.with_fixed_environment()
        .env("LANG", "C.UTF-8")
        .envs(SECRETS.iter().copied())
        .args(["--game", "kalah", "--scenarios", &scenario])
        .args(["--color", "never", "--format", format])
        .args(extra)
        .arg(common::bot("kalah-env-echo"))
        .timeout(std::time::Duration::from_secs(120));
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The `NAME` of every `env: NAME=VALUE` line the bot wrote.
fn echoed(report: &Value) -> Vec<String> {
    report["scenarios"][0]["stderr_tail"]
        .as_str()
        .unwrap_or_else(|| panic!("no stderr tail: {report:#}"))
        .lines()
        .filter_map(|l| l.strip_prefix("env: "))
        .map(|l| l.split('=').next().unwrap().to_string())
        .collect()
}

#[test]
fn a_ci_token_in_protochecks_environment_does_not_reach_the_bot() {
    let (code, text) = echo(&[], "json");
    let report = json(&text);
    assert_eq!(code, 0, "{report:#}");
    let got = echoed(&report);
    for wanted in ["PATH", "HOME", "LANG"] {
        assert!(got.iter().any(|n| n == wanted), "{wanted} missing: {got:?}");
    }
    for (secret, value) in SECRETS {
        assert!(!got.iter().any(|n| n == secret), "{secret} reached the bot");
        assert!(
            !text.contains(value),
            "the value of {secret} is in the report"
        );
    }
    assert_eq!(report["environment"]["base"], "clean");
    assert_eq!(
        report["environment"]["kept"],
        serde_json::json!(["PATH", "HOME", "LANG"])
    );
    assert_eq!(
        report["environment"]["removed"],
        serde_json::json!([
            "AWS_SECRET_ACCESS_KEY",
            "CI_JOB_TOKEN",
            "GITHUB_TOKEN",
            "PYTHONUNBUFFERED"
        ])
    );
}

#[test]
fn pass_env_brings_the_named_variable_and_the_report_lists_its_name_only() {
    let (code, text) = echo(&["--pass-env", "CI_JOB_TOKEN"], "json");
    let report = json(&text);
    assert_eq!(code, 0, "{report:#}");
    let tail = report["scenarios"][0]["stderr_tail"].as_str().unwrap();
    // The bot got it (and wrote it to its own stderr)...
    assert!(
        tail.contains("env: CI_JOB_TOKEN=glcbt-64_protocheck-test-secret-1"),
        "{tail}"
    );
    assert!(!echoed(&report).iter().any(|n| n == "GITHUB_TOKEN"));
    // ... and protocheck's own lines name it, never its value.
    let note = report["environment"].to_string();
    assert_eq!(
        report["environment"]["passed"],
        serde_json::json!(["CI_JOB_TOKEN"])
    );
    assert!(!note.contains("secret") && !note.contains("ghp_"), "{note}");
    // A prefix passes every name that starts with it; `*` all but the I/O
    // switches (the environment before the fixed one).
    let (_, text) = echo(&["--pass-env", "CI_*"], "json");
    assert_eq!(
        json(&text)["environment"]["passed"],
        serde_json::json!(["CI_JOB_TOKEN"])
    );
    let (_, text) = echo(&["--pass-env", "*"], "json");
    let report = json(&text);
    let got = echoed(&report);
    assert!(got.iter().any(|n| n == "GITHUB_TOKEN"), "{got:?}");
    assert!(!got.iter().any(|n| n == "PYTHONUNBUFFERED"), "{got:?}");
    assert_eq!(report["environment"]["base"], "inherited");
}

#[test]
fn the_human_report_says_what_the_bot_got_and_what_was_left_out_by_name() {
    let (code, human) = echo(&["-q"], "human");
    assert_eq!(code, 0, "{human}");
    assert!(
        human.contains(
            "bot environment: clean (PATH, HOME, LANG); 4 of protocheck's variables left out (PYTHONUNBUFFERED, AWS_SECRET_ACCESS_KEY, CI_JOB_TOKEN, …; --pass-env NAME keeps one)\n"
        ),
        "{human}"
    );
    for (secret, value) in SECRETS {
        assert!(!human.contains(value), "the value of {secret}: {human}");
    }
}

/// The Evolution client finds protocheck's port in the clean environment,
/// and the report names the game's variable.
#[test]
fn an_evolution_client_gets_protocheck_port_in_the_clean_environment() {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .env("CI_JOB_TOKEN", "glcbt-64_protocheck-test-secret-1")
        .args(["--game", "evolution", "--filter", "whole-game-3p-seat1"])
        .args(["--format", "json", "--color", "never"])
        .arg(common::bot("evo-correct"))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let report = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    assert_eq!(report["scenarios"][0]["status"], "passed", "{report:#}");
    assert_eq!(
        report["environment"]["game"],
        serde_json::json!(["PROTOCHECK_PORT"])
    );
    assert_eq!(
        report["environment"]["removed"],
        serde_json::json!(["CI_JOB_TOKEN"])
    );
}

/// `grade` runs each bot through its own protocheck: the grader's CI token
/// stays out of every bot's environment there too.
#[test]
fn grade_keeps_the_graders_ci_token_from_the_bots() {
    let class = std::env::temp_dir().join(format!(
        "protocheck-bot-env-grade-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    let dir = class.join("submissions").join("echo");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(common::bot("kalah-env-echo"), dir.join("bot")).unwrap();
    let scenario = common::fixture("kalah/one-move.yaml");
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(&class)
        .env("CI_JOB_TOKEN", "glcbt-64_protocheck-test-secret-1")
        .args(["grade", "--out", "grades", "submissions/*/bot", "--"])
        .args(["--game", "kalah", "--scenarios", &scenario])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let report = std::fs::read_to_string(class.join("grades/echo/report.json"))
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let report = json(&report);
    assert_eq!(report["scenarios"][0]["status"], "passed", "{report:#}");
    let got = echoed(&report);
    assert!(got.iter().any(|n| n == "PATH"), "{got:?}");
    assert!(!got.iter().any(|n| n == "CI_JOB_TOKEN"), "{got:?}");
    assert!(!report.to_string().contains("test-secret"));
    let _ = std::fs::remove_dir_all(&class);
}
