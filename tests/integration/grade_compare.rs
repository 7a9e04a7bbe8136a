//! `grade --compare OLD_DIR` end to end: two grades of a class a week
//! apart, the second compared with the first: each bot's previous score
//! and the rules it fixed or newly broke, in grades.json, grades.csv and on
//! the class page; a bot the first grade did not have is new.

use crate::common;

use assert_cmd::Command;
use common::bot;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn class_folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-grade-compare-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `submissions/<id>/bot`, a copy of the sample bot `example`.
fn submit(class: &Path, id: &str, example: &str) {
    let dir = class.join("submissions").join(id);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bot");
    let _ = std::fs::remove_file(&path);
    std::fs::copy(bot(example), &path).unwrap();
}

fn grade(class: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["grade", "submissions/*/bot", "--jobs", "2"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "--game", "kalah", "--filter", "opening"]);
    Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(class)
        .args(&all)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_second_grade_compared_with_the_first_shows_scores_then_and_rules_fixed_and_broken() {
    let class = class_folder();
    submit(&class, "ada", "kalah-zero-based");
    submit(&class, "ben", "kalah-correct");
    let out = grade(&class, &["--out", "week1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A week later: ada fixed her holes, ben broke the extra turn, chloe
    // handed in for the first time.
    submit(&class, "ada", "kalah-correct");
    submit(&class, "ben", "kalah-opening-extra-turn");
    submit(&class, "chloe", "kalah-correct");
    let out = grade(&class, &["--out", "week2", "--compare", "week1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let grades: Value =
        serde_json::from_str(&std::fs::read_to_string(class.join("week2/grades.json")).unwrap())
            .unwrap();
    assert_eq!(grades["compared_with"], "week1");
    let bots = grades["bots"].as_array().unwrap();
    let (ada, ben, chloe) = (&bots[0], &bots[1], &bots[2]);
    let full = ada["score"].as_f64().unwrap();
    assert_eq!(ada["compared"]["new"], false);
    assert_eq!(ada["compared"]["previous_score"], 0.0, "{ada}");
    assert_eq!(
        ada["compared"]["fixed_rules"],
        serde_json::json!(["kalah.move.hole-range"])
    );
    assert_eq!(ada["compared"]["newly_broken_rules"], serde_json::json!([]));
    assert_eq!(
        ben["compared"]["previous_score"].as_f64(),
        Some(full),
        "{ben}"
    );
    assert_eq!(ben["compared"]["fixed_rules"], serde_json::json!([]));
    assert_eq!(
        ben["compared"]["newly_broken_rules"],
        serde_json::json!(["kalah.turn.no-extra-turn"])
    );
    assert_eq!(chloe["compared"]["new"], true, "{chloe}");
    assert!(chloe["compared"]["previous_score"].is_null());

    let csv = std::fs::read_to_string(class.join("week2/grades.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].ends_with(
            ",score,max_score,previous,previous_score,previous_max_score,fixed_rules,newly_broken_rules"
        ),
        "{csv}"
    );
    let full = format!("{full}").trim_end_matches(".0").to_string();
    assert!(
        lines[1].ends_with(&format!(",graded,0,{full},kalah.move.hole-range,")),
        "{csv}"
    );
    assert!(
        lines[2].ends_with(&format!(",graded,{full},{full},,kalah.turn.no-extra-turn")),
        "{csv}"
    );
    assert!(lines[3].ends_with(",new,,,,"), "{csv}");

    let page = std::fs::read_to_string(class.join("week2/index.html")).unwrap();
    assert!(
        page.contains("Compared with the grades in <code>week1</code>: 1 scored higher, 1 lower, 0 the same, 1 new (no report there)"),
        "{page}"
    );
    assert!(
        page.contains("<th>previous score</th><th>since then</th>"),
        "{page}"
    );
    assert!(
        page.contains("fixed <code>kalah.move.hole-range</code>"),
        "{page}"
    );
    assert!(
        page.contains("newly broken <code>kalah.turn.no-extra-turn</code>"),
        "{page}"
    );
    assert!(page.contains("data-sort=\"-1\">new</td>"), "{page}");

    // A grade without --compare has none of it, kept rows included.
    let out = grade(&class, &["--out", "week2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let csv = std::fs::read_to_string(class.join("week2/grades.csv")).unwrap();
    assert!(
        csv.lines().next().unwrap().ends_with(",score,max_score"),
        "{csv}"
    );
    let page = std::fs::read_to_string(class.join("week2/index.html")).unwrap();
    assert!(!page.contains("previous score"), "{page}");
    let _ = std::fs::remove_dir_all(&class);
}

#[test]
fn compare_refuses_a_missing_folder_and_the_output_folder_itself() {
    let class = class_folder();
    submit(&class, "ada", "kalah-correct");
    let out = grade(&class, &["--out", "week1", "--compare", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "--compare nowhere: not a folder (give the output folder of an earlier grade)"
        ),
        "{}",
        stderr(&out)
    );
    std::fs::create_dir_all(class.join("week1")).unwrap();
    let out = grade(&class, &["--out", "week1", "--compare", "week1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--compare week1 is the output folder"),
        "{}",
        stderr(&out)
    );
    assert!(!class.join("week1/grades.json").exists(), "nothing ran");
    let _ = std::fs::remove_dir_all(&class);
}
