//! Every JSON report protocheck writes validates against the published
//! schema, `docs/report.schema.json` (generated from the report's types;
//! `report::schema` checks the committed file is the generated one): the
//! snapshots, single runs (a policy's score, generated games, pictures)
//! and `grade`'s per-bot `report.json`.

use crate::common;

use assert_cmd::Command;
use common::bot;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn validator() -> jsonschema::Validator {
    let path = format!("{}/docs/report.schema.json", env!("CARGO_MANIFEST_DIR"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, text: &str, what: &str) {
    let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

fn folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-report-schema-{tag}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

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
fn the_report_snapshots_validate_and_an_unknown_key_does_not() {
    let validator = validator();
    for name in [
        "kalah-fail-json.snap",
        "kalah-pass-json.snap",
        "kalah-skip-json.snap",
    ] {
        let path = format!("{}/snapshots/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let json = text.splitn(3, "---\n").nth(2).unwrap();
        assert_valid(&validator, json, name);
        let mut doc: Value = serde_json::from_str(json).unwrap();
        doc["scenarios"][0]["coverage_typo"] = Value::from(1);
        assert!(!validator.is_valid(&doc), "{name}: an unknown key passed");
    }
}

#[test]
fn single_runs_with_a_score_generated_games_and_pictures_validate() {
    let dir = folder("run");
    std::fs::write(
        dir.join("protocheck.toml"),
        "[grading]\nper-clean-game = 1\nper-game-won = 1\nwarnings = 0.5\n\n\
         [[grading.group]]\nname = \"openings\"\nscenarios = [\"*opening*\"]\npoints = 5\n",
    )
    .unwrap();
    let validator = validator();
    for example in ["kalah-correct", "kalah-opening-extra-turn"] {
        let out = protocheck(
            &dir,
            &[
                "--game",
                "kalah",
                "--games",
                "2",
                "--seed",
                "7",
                "--report",
                "json=r.json",
                "--report",
                "html=r.html",
                // The pictures kept in the JSON report too.
                "--pictures",
                &bot(example),
            ],
        );
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{example}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(dir.join("r.json")).unwrap();
        assert!(text.contains("\"grading\""), "{example}: {text}");
        assert!(text.contains("\"source\": \"generated"), "{example}");
        assert!(text.contains("\"ending\""), "{example}");
        if example != "kalah-correct" {
            assert!(text.contains("\"frames\""), "{example}: no pictures");
        }
        assert_valid(&validator, &text, example);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn grade_s_per_bot_reports_validate() {
    let dir = folder("grade");
    for (id, example) in [("ada", "kalah-correct"), ("ben", "kalah-zero-based")] {
        let bot_dir = dir.join("class").join(id);
        std::fs::create_dir_all(&bot_dir).unwrap();
        std::fs::copy(bot(example), bot_dir.join("bot")).unwrap();
    }
    let out = protocheck(
        &dir,
        &[
            "grade",
            "class/*/bot",
            "--jobs",
            "2",
            "--",
            "--game",
            "kalah",
            "--filter",
            "opening",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let validator = validator();
    for id in ["ada", "ben"] {
        let text =
            std::fs::read_to_string(dir.join("grades").join(id).join("report.json")).unwrap();
        assert_valid(&validator, &text, id);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
