//! `--report gradescope=FILE` and `--report prairielearn=FILE`: each
//! platform's results.json, validated against a JSON Schema written from
//! its published specification (tests/fixtures/*-results.schema.json),
//! carrying the policy's scores, and free of the grader's paths.

use crate::common;

use assert_cmd::Command;
use common::bot;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-platforms-{tag}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first three openings share 9 points and are hidden until a date
/// far ahead; the other 5 scenarios are 2 points each.
const POLICY: &str = "[grading]\npoints-per-scenario = 2\n\n\
[[grading.group]]\nname = \"first openings\"\nscenarios = [\"north-opening-[1-3]\"]\npoints = 9\n\
hidden-until = \"2099-12-01T23:59:00Z\"\n";

fn run(dir: &Path, example: &str) -> std::process::Output {
    Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(dir)
        .args(["--game", "kalah", "--filter", "opening", "--jobs", "1"])
        .args(["--grading", "policy.toml"])
        .args([
            "--report",
            "gradescope=gs.json",
            "--report",
            "prairielearn=pl.json",
        ])
        .arg(bot(example))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap()
}

/// The document at `path`, after checking it against the schema.
fn valid(path: &Path, schema: &str) -> Value {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(common::fixture(schema)).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{} does not validate: {errors:#?}\n{text}",
        path.display()
    );
    // Per-student output names no folder of the grader's.
    let examples = Path::new(&bot("kalah-correct"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    for path in [
        examples.as_str(),
        &path.parent().unwrap().display().to_string(),
        "/work/",
        "/tmp/",
    ] {
        assert!(!text.contains(path), "{path} in {text}");
    }
    doc
}

#[test]
fn a_failing_bot_s_results_validate_and_carry_the_policy_s_scores() {
    let dir = folder("failing");
    std::fs::write(dir.join("policy.toml"), POLICY).unwrap();
    let out = run(&dir, "kalah-zero-based");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let gs = valid(&dir.join("gs.json"), "gradescope-results.schema.json");
    assert_eq!(gs["score"], 0.0);
    let tests = gs["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 6, "{gs:#}");
    assert_eq!(tests[0]["name"], "first openings");
    assert_eq!(
        (tests[0]["score"].as_f64(), tests[0]["max_score"].as_f64()),
        (Some(0.0), Some(9.0))
    );
    assert_eq!(tests[0]["visibility"], "after_due_date");
    assert_eq!(tests[1]["visibility"], "visible");
    assert_eq!(tests[1]["max_score"], 2.0);
    for t in tests {
        assert_eq!(t["status"], "failed");
        assert!(
            t["tags"]
                .as_array()
                .unwrap()
                .contains(&"kalah.move.hole-range".into()),
            "{t:#}"
        );
        let output = t["output"].as_str().unwrap();
        assert!(
            output.contains("`kalah.move.hole-range` (fail)"),
            "{output}"
        );
        assert!(output.contains("\n> "), "the spec sentence: {output}");
        assert!(output.contains("```text\n"), "the exchange: {output}");
        assert!(
            output.contains("Replay: `protocheck --game kalah --filter "),
            "{output}"
        );
        assert!(output.contains(" ./kalah-zero-based`"), "{output}");
    }
    let summary = gs["output"].as_str().unwrap();
    assert!(summary.contains("**score: 0 / 19**"), "{summary}");
    assert!(summary.contains("sandbox: "), "{summary}");
    let pl = valid(&dir.join("pl.json"), "prairielearn-results.schema.json");
    assert_eq!(pl["gradable"], true);
    assert_eq!(pl["score"], 0.0);
    assert_eq!(pl["message"], "score: 0 / 19");
    let pl_tests = pl["tests"].as_array().unwrap();
    assert_eq!(pl_tests.len(), 6);
    assert_eq!(pl_tests[0]["max_points"], 9.0);
    assert_eq!(pl_tests[0]["message"], "Hidden until 2099-12-01T23:59:00Z.");
    assert_eq!(pl_tests[1]["message"], "failed (kalah.move.hole-range)");
    assert!(pl_tests[1]["output"].as_str().unwrap().contains("Replay: "));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_correct_bot_earns_every_point() {
    let dir = folder("correct");
    std::fs::write(dir.join("policy.toml"), POLICY).unwrap();
    let out = run(&dir, "kalah-correct");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let gs = valid(&dir.join("gs.json"), "gradescope-results.schema.json");
    assert_eq!(gs["score"], 19.0);
    assert!(
        gs["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["status"] == "passed")
    );
    let pl = valid(&dir.join("pl.json"), "prairielearn-results.schema.json");
    assert_eq!(pl["score"], 1.0);
    assert_eq!(pl["tests"][1]["message"], "Passed.");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bot_that_cannot_be_started_is_not_gradable_and_costs_no_attempt() {
    let dir = folder("unstartable");
    let missing = dir.join("submission/bot");
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(&dir)
        .args(["--game", "kalah", "--filter", "opening"])
        .args([
            "--report",
            "gradescope=gs.json",
            "--report",
            "prairielearn=pl.json",
        ])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let pl = valid(&dir.join("pl.json"), "prairielearn-results.schema.json");
    assert_eq!(pl["gradable"], false);
    let errors = pl["format_errors"].as_array().unwrap();
    assert!(errors[0].as_str().unwrap().contains("./bot"), "{pl:#}");
    let gs = valid(&dir.join("gs.json"), "gradescope-results.schema.json");
    assert_eq!(gs["score"], 0.0);
    assert!(
        gs["output"]
            .as_str()
            .unwrap()
            .contains("could not be started"),
        "{gs:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The schemas can fail: what the specifications rule out is refused.
#[test]
fn the_schemas_refuse_what_the_specifications_rule_out() {
    let check = |schema: &str, doc: Value| {
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(common::fixture(schema)).unwrap())
                .unwrap();
        jsonschema::validator_for(&schema).unwrap().is_valid(&doc)
    };
    let gs = "gradescope-results.schema.json";
    assert!(check(
        gs,
        serde_json::json!({"score": 1, "tests": [{"status": "passed"}]})
    ));
    assert!(
        !check(gs, serde_json::json!({"tests": [{"status": "ok"}]})),
        "a status"
    );
    assert!(!check(
        gs,
        serde_json::json!({"score": 1, "tests": [{"visibility": "later"}]})
    ));
    assert!(!check(
        gs,
        serde_json::json!({"output": "no score, no tests"})
    ));
    assert!(
        !check(gs, serde_json::json!({"score": 1, "scor": 2})),
        "an unknown key"
    );
    let pl = "prairielearn-results.schema.json";
    assert!(check(
        pl,
        serde_json::json!({"gradable": false, "format_errors": ["x"]})
    ));
    assert!(
        !check(pl, serde_json::json!({"gradable": true})),
        "gradable needs a score"
    );
    assert!(!check(pl, serde_json::json!({"score": 19})), "0 to 1");
    assert!(
        !check(
            pl,
            serde_json::json!({"score": 1, "tests": [{"points": 1}]})
        ),
        "a name"
    );
}

#[test]
fn the_policy_s_leaderboard_reaches_gradescope_s_results() {
    let dir = folder("leaderboard");
    std::fs::write(
        dir.join("policy.toml"),
        "[grading]\nper-game-won = 1\nleaderboard = [\"games-won\", \"warnings\"]\n",
    )
    .unwrap();
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(&dir)
        .args(["--game", "kalah", "--games", "2", "--seed", "7"])
        .args(["--filter", "generated", "--jobs", "1"])
        .args(["--grading", "policy.toml", "--report", "gradescope=gs.json"])
        .arg(bot("kalah-correct"))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let gs = valid(&dir.join("gs.json"), "gradescope-results.schema.json");
    let board = gs["leaderboard"].as_array().expect("a leaderboard");
    assert_eq!(board.len(), 2, "{gs:#}");
    assert_eq!(board[0]["name"], "Games won");
    assert_eq!(board[0]["order"], "desc");
    // Each game won without a finding is a point: the board says as many.
    assert_eq!(board[0]["value"], gs["score"], "{gs:#}");
    assert_eq!(
        board[1],
        serde_json::json!({"name": "Warnings", "value": 0.0, "order": "asc"})
    );
    // Without one in the policy there is none.
    std::fs::write(dir.join("policy.toml"), "[grading]\nper-game-won = 1\n").unwrap();
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(&dir)
        .args(["--game", "kalah", "--games", "1", "--seed", "7"])
        .args(["--filter", "generated", "--jobs", "1"])
        .args(["--grading", "policy.toml", "--report", "gradescope=gs.json"])
        .arg(bot("kalah-correct"))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let gs = valid(&dir.join("gs.json"), "gradescope-results.schema.json");
    assert!(gs.get("leaderboard").is_none(), "{gs:#}");
    let _ = std::fs::remove_dir_all(&dir);
}
