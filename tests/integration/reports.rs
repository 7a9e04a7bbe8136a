//! Several reports from one run (`--report KIND=FILE`, repeatable): each is
//! what the older `--format KIND --output FILE` writes alone, times aside;
//! and `grade` reads each bot's JSON report back as the typed results.

use crate::common;

use assert_cmd::Command;
use common::bot;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-reports-{tag}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A short selection with a failure (the bot numbers holes from 0).
const RUN: &[&str] = &["--game", "kalah", "--filter", "opening", "--jobs", "1"];

fn run(dir: &Path, reports: &[&str]) -> std::process::Output {
    Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(dir)
        .args(RUN)
        .args(reports)
        .arg(bot("kalah-zero-based"))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap()
}

/// The JSON report with every time figure zeroed.
fn json_without_times(text: &str) -> Value {
    fn zero(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if ["duration_ms", "listened_ms", "ms", "wall_ms", "own_ms"]
                        .contains(&k.as_str())
                        && v.is_number()
                    {
                        *v = Value::from(0);
                    } else {
                        zero(v);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(zero),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(text).unwrap();
    zero(&mut v);
    v
}

/// Every run of digits after `time="`, `ms`-like figures and times in
/// words replaced: what is left must be equal.
fn text_without_times(text: &str) -> String {
    let re = regex::Regex::new(
        r#"(time="[0-9.]+")|([0-9]+(\.[0-9]+)? ?(ms|s)\b)|(\+[0-9]+ ?ms)|("ms":[0-9]+)|(data-ms="[0-9]+")"#,
    )
    .unwrap();
    re.replace_all(text, "T").into_owned()
}

#[test]
fn one_run_writes_every_report_as_each_format_alone_would() {
    let dir = folder("one-run");
    let out = run(
        &dir,
        &[
            "--report",
            "json=all.json",
            "--report",
            "junit=all.xml",
            "--report",
            "html=all.html",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    // No human report on stdout: the summary line goes to stderr.
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("passed, "),
        "{out:?}"
    );
    for (format, file) in [
        ("json", "all.json"),
        ("junit", "all.xml"),
        ("html", "all.html"),
    ] {
        let alone = format!("alone.{format}");
        let out = run(&dir, &["--format", format, "--output", &alone]);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let together = std::fs::read_to_string(dir.join(file)).unwrap();
        let alone = std::fs::read_to_string(dir.join(&alone)).unwrap();
        if format == "json" {
            assert!(
                !together.contains("\"frames\""),
                "pictures stay out of the JSON"
            );
            assert_eq!(json_without_times(&together), json_without_times(&alone));
        } else {
            assert_eq!(
                text_without_times(&together),
                text_without_times(&alone),
                "{format}"
            );
        }
    }
    // The older form and a --report together: both written.
    let out = run(&dir, &["--format", "human", "--report", "json=both.json"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("kalah.move"),
        "{out:?}"
    );
    assert!(dir.join("both.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_reports_on_standard_output_are_refused() {
    let dir = folder("refused");
    let out = run(&dir, &["--report", "json", "--report", "junit"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("more than one report goes to standard output"),
        "{out:?}"
    );
    let out = run(&dir, &["--report", "yaml=x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("unknown report `yaml`"),
        "{out:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn grade_reads_each_bot_s_reports_from_its_one_run() {
    let class = folder("grade");
    for (id, example) in [("ann", "kalah-correct"), ("zed", "kalah-zero-based")] {
        let d = class.join("submissions").join(id);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(bot(example), d.join("bot")).unwrap();
    }
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(&class)
        .args([
            "grade",
            "submissions/ann/bot",
            "submissions/zed/bot",
            "--jobs",
            "1",
            "--",
        ])
        .args(&RUN[..4])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let grades: Value =
        serde_json::from_str(&std::fs::read_to_string(class.join("grades/grades.json")).unwrap())
            .unwrap();
    let zed = &grades["bots"][1];
    assert_eq!(zed["status"], "failed");
    assert!(
        zed["first_failing_rule"]
            .as_str()
            .unwrap()
            .starts_with("kalah."),
        "{zed}"
    );
    let folder = class.join("grades/zed");
    let json = std::fs::read_to_string(folder.join("report.json")).unwrap();
    assert!(
        !json.contains("\"frames\""),
        "the kept JSON report has no pictures"
    );
    let text = std::fs::read_to_string(folder.join("report.txt")).unwrap();
    assert!(
        text.contains(zed["first_failing_rule"].as_str().unwrap()),
        "{text}"
    );
    assert!(!text.contains("\u{1b}["), "no colour in the file");
    let html = std::fs::read_to_string(folder.join("report.html")).unwrap();
    assert!(
        html.contains("<figure class=\"board\""),
        "the page draws the board"
    );
    let _ = std::fs::remove_dir_all(&class);
}
