//! How a scenario outside the default run is reported, pinned in all three
//! formats: skipped, with the reason and the option that runs it (kalah.md
//! decision 14). No bot runs: both selected scenarios are on other boards.

use crate::common;
use assert_cmd::Command;
use common::*;

fn report(format: &str) -> (i32, String) {
    let bot = bot("kalah-correct");
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args([
            "--game", "kalah", "--filter", "size-6-4", "--color", "never", "--format", format, &bot,
        ])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let text = canonical_sandbox(&String::from_utf8_lossy(&out.stdout))
        .replace(&bot, "<bot>")
        .replace(
            &format!("protocheck {}", protocheck::build_info::LONG),
            "protocheck <version>",
        )
        .replace(
            &format!("\"{}\"", protocheck::build_info::LONG),
            "\"<version>\"",
        );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn other_boards_are_reported_as_skipped_with_the_option_that_runs_them() {
    for format in ["human", "json", "junit"] {
        let (code, text) = report(format);
        assert_eq!(code, 0, "skips are not failures: {text}");
        assert!(
            text.contains("Kalah(6,4) board; a real match is always Kalah(7,7)"),
            "{text}"
        );
        assert!(text.contains("run with --all-sizes"), "{text}");
        insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(format!("kalah-skip-{format}"), text);
        });
    }
}

#[test]
fn list_marks_the_skipped_scenarios() {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args(["--game", "kalah", "--list"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    let lines: Vec<&str> = text.lines().collect();
    // 25 in the default run (19 + the six steered 7×7 scenarios 38-43)
    // and 18 on other boards.
    assert_eq!(lines.len(), 43, "{text}");
    let skipped: Vec<&&str> = lines.iter().filter(|l| l.contains("(skipped: ")).collect();
    assert_eq!(skipped.len(), 18, "{text}");
    for name in [
        "south-first-move ",
        "7x7-opponent-laps ",
        "7x7-end-opponent-empties-row ",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(name) && !l.contains("skipped")),
            "{name}: {text}"
        );
    }
    let all = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args(["--game", "kalah", "--list", "--holes", "6", "--seeds", "4"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&all.stdout).contains("skipped"));
}
