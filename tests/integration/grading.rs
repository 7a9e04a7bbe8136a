//! A grading policy end to end: the `[grading]` table of protocheck.toml
//! scores a run in every report, and `grade` carries each bot's score into
//! grades.csv/json (last columns) and the gradebook CSV.

use crate::common;

use assert_cmd::Command;
use common::bot;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-grading-{tag}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 8 scenarios run (2 more are outside the default run: not scored):
/// north-opening-1..3 share 9 points, the other 5 are 2 points each.
const POLICY: &str = "[grading]\npoints-per-scenario = 2\nwarnings = \"fail\"\n\n\
[[grading.group]]\nname = \"first openings\"\nscenarios = [\"north-opening-[1-3]\"]\npoints = 9\n\
hidden-until = \"2026-12-01T23:59:00Z\"\n";

fn protocheck(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap()
}

#[test]
fn the_project_file_s_policy_scores_every_report() {
    let dir = folder("reports");
    std::fs::write(
        dir.join("protocheck.toml"),
        format!("game = \"kalah\"\nfilter = \"opening\"\njobs = 1\n{POLICY}"),
    )
    .unwrap();
    for (example, score) in [("kalah-correct", "19"), ("kalah-zero-based", "0")] {
        let out = protocheck(
            &dir,
            &[
                "--report",
                "human",
                "--report",
                "json=r.json",
                "--report",
                "junit=r.xml",
                "--report",
                "html=r.html",
                &bot(example),
            ],
        );
        let human = String::from_utf8_lossy(&out.stdout);
        assert!(
            human.contains(&format!("score: {score} / 19 (protocheck.toml [grading])")),
            "{human}"
        );
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
        assert_eq!(json["score"].to_string(), score.to_string() + ".0");
        assert_eq!(json["max_score"], 19.0);
        let group = &json["grading"]["tests"][0];
        assert_eq!(group["name"], "first openings");
        assert_eq!(group["max_score"], 9.0);
        assert_eq!(group["hidden_until"], "2026-12-01T23:59:00Z");
        let xml = std::fs::read_to_string(dir.join("r.xml")).unwrap();
        assert!(
            xml.contains(&format!("<property name=\"score\" value=\"{score}\"/><property name=\"max_score\" value=\"19\"/>")),
            "{xml}"
        );
        let html = std::fs::read_to_string(dir.join("r.html")).unwrap();
        assert!(
            html.contains(&format!("{score} / 19 (protocheck.toml [grading])")),
            "{example}"
        );
    }
    // A policy that cannot be read stops the run before any bot starts.
    std::fs::write(
        dir.join("bad.toml"),
        "[grading]\npoints-per-scenario = -2\n",
    )
    .unwrap();
    let out = protocheck(&dir, &["--grading", "bad.toml", &bot("kalah-correct")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("points-per-scenario"),
        "{out:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn grade_writes_the_scores_last_and_the_gradebook_csv() {
    let class = folder("grade");
    std::fs::write(class.join("policy.toml"), POLICY).unwrap();
    for (id, example) in [("ann", "kalah-correct"), ("zed", "kalah-zero-based")] {
        let d = class.join("submissions").join(id);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(bot(example), d.join("bot")).unwrap();
    }
    let out = protocheck(
        &class,
        &[
            "grade",
            "submissions/ann/bot",
            "submissions/zed/bot",
            "--jobs",
            "2",
            "--gradebook-csv",
            "gradebook.csv",
            "--",
            "--game",
            "kalah",
            "--filter",
            "opening",
            "--grading",
            "policy.toml",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(class.join("gradebook.csv")).unwrap(),
        "id,score\nann,19\nzed,0\n"
    );
    let csv = std::fs::read_to_string(class.join("grades/grades.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].ends_with(",sandbox,not_run,score,max_score"),
        "{csv}"
    );
    assert!(
        lines[1].starts_with("ann,passed,") && lines[1].ends_with(",0,19,19"),
        "{csv}"
    );
    assert!(lines[2].ends_with(",0,0,19"), "{csv}");
    let grades: Value =
        serde_json::from_str(&std::fs::read_to_string(class.join("grades/grades.json")).unwrap())
            .unwrap();
    assert_eq!(grades["bots"][0]["score"], 19.0);
    assert_eq!(grades["bots"][1]["max_score"], 19.0);
    // A changed policy grades the bots again (the same options, new points).
    std::fs::write(
        class.join("policy.toml"),
        POLICY.replace("points = 9", "points = 3"),
    )
    .unwrap();
    let again = protocheck(
        &class,
        &[
            "grade",
            "submissions/ann/bot",
            "--gradebook-csv",
            "gradebook.csv",
            "--",
            "--game",
            "kalah",
            "--filter",
            "opening",
            "--grading",
            "policy.toml",
        ],
    );
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("the grading policy changed"),
        "{again:?}"
    );
    assert_eq!(
        std::fs::read_to_string(class.join("gradebook.csv")).unwrap(),
        "id,score\nann,13\n"
    );
    let _ = std::fs::remove_dir_all(&class);
}
