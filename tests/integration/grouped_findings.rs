//! Identical findings (issue 19, item 8): a bot that fails every built-in
//! scenario the same way gets one full block in the human report, the other
//! scenarios listed by name; the JSON report keeps every finding.

use assert_cmd::Command;
use serde_json::Value;
use std::time::Duration;

/// The built-in Kalah suite against a bot that exits at once (every
/// scenario fails with the same `io.crash`), all of it run.
fn crash_run(format: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .args([
            "--game",
            "kalah",
            "--jobs",
            "2",
            "--keep-going",
            "--format",
            format,
        ])
        .args(extra)
        .args(["--bot-cmd", "false"])
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn failed_names(report: &Value) -> Vec<String> {
    report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "failed")
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_same_finding_in_many_scenarios_is_shown_once_and_the_rest_by_name() {
    let (code, json) = crash_run("json", &[]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&json).unwrap();
    let failed = failed_names(&report);
    assert!(failed.len() > 3, "{failed:?}");
    // JSON keeps every finding, each with its spec sentence and message.
    for s in report["scenarios"].as_array().unwrap() {
        if s["status"] != "failed" {
            continue;
        }
        let crashes: Vec<&Value> = s["violations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["rule"] == "io.crash")
            .collect();
        assert_eq!(crashes.len(), 1, "{s}");
        assert!(crashes[0]["spec"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(
            crashes[0]["message"]
                .as_str()
                .is_some_and(|t| !t.is_empty())
        );
    }
    let message = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["status"] == "failed")
        .map(|s| s["violations"][0]["message"].as_str().unwrap().to_string())
        .unwrap();

    let (code, human) = crash_run("human", &["--color", "never"]);
    assert_eq!(code, 1);
    // Every failing scenario keeps its FAIL line in the list.
    for name in &failed {
        assert!(
            human
                .lines()
                .any(|l| l.starts_with("FAIL  ")
                    && l.split_whitespace().nth(1) == Some(name.as_str())),
            "no FAIL line for {name}:\n{human}"
        );
    }
    // One full block: the message and spec once.
    let full_blocks = human.lines().filter(|l| l.trim() == message).count();
    assert_eq!(full_blocks, 1, "{human}");
    assert_eq!(
        human
            .lines()
            .filter(|l| l.trim_start().starts_with("spec:"))
            .count(),
        1,
        "{human}"
    );
    assert_eq!(
        human
            .lines()
            .filter(|l| l.starts_with(&format!("── FAIL {} ", failed[0])))
            .count(),
        1,
        "the first failing scenario has the full block:\n{human}"
    );
    // The rest, by name, after it.
    let others = &failed[1..];
    let listed = format!(
        "and {} more scenarios with the same finding: {}",
        others.len(),
        others.join(", ")
    );
    assert!(
        human.lines().any(|l| l.trim() == listed),
        "expected `{listed}` in:\n{human}"
    );
    // And each of them points at the full block in one line.
    for name in others {
        let pointer = format!(
            "── FAIL {name}: the same finding (io.crash) as {} (shown in full above)",
            failed[0]
        );
        assert!(
            human.lines().any(|l| l == pointer),
            "expected `{pointer}` in:\n{human}"
        );
    }
}

#[test]
fn verbose_shows_every_scenario_in_full() {
    let (code, human) = crash_run("human", &["--color", "never", "-v"]);
    assert_eq!(code, 1);
    let fails = human.lines().filter(|l| l.starts_with("FAIL  ")).count();
    let blocks = human.lines().filter(|l| l.starts_with("── FAIL ")).count();
    assert!(fails > 3, "{human}");
    assert_eq!(blocks, fails, "{human}");
    assert!(!human.contains("with the same finding"), "{human}");
}
