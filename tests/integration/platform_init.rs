//! `protocheck init --platform gradescope|prairielearn` end to end: the
//! generated scripts run in a folder laid out like /autograder (or /grade),
//! its root from an environment variable, against a correct and a broken
//! sample bot, and the results.json they leave is checked.

use crate::common;

use assert_cmd::Command;
use common::bot;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-init-platform-{tag}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn init(dir: &Path, platform: &str) {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(dir)
        .args([
            "init",
            "--platform",
            platform,
            "--game",
            "kalah",
            "--bot",
            "./bot",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("next: "),
        "{out:?}"
    );
}

/// What pip installs protocheck's wheel as: the `[project]` name of
/// pyproject.toml (not `protocheck`, an unrelated package on PyPI) at this
/// version.
fn wheel_requirement() -> String {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/pyproject.toml"))
        .expect("pyproject.toml");
    let project = text.split("[project]").nth(1).expect("a [project] table");
    let name = project
        .lines()
        .find_map(|l| l.trim().strip_prefix("name = "))
        .expect("a name")
        .trim_matches('"');
    format!("{name}=={}", env!("CARGO_PKG_VERSION"))
}

/// A short selection keeps the test cheap: settings go before the
/// [grading] table (after it they would be the table's).
fn shorten(project: &Path) {
    let text = std::fs::read_to_string(project).unwrap();
    let text = text.replacen(
        "\n[grading]",
        "\nfilter = \"opening\"\njobs = 1\n\n[grading]",
        1,
    );
    std::fs::write(project, text).unwrap();
}

/// Put `example` as the submission's bot, run `script` with the root in
/// `root_var`, and return the results.json it left.
fn grade(
    script: &Path,
    root: &Path,
    root_var: &str,
    submission: &str,
    example: Option<&str>,
) -> Value {
    let dir = root.join(submission);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(root.join("results"));
    std::fs::create_dir_all(&dir).unwrap();
    if let Some(example) = example {
        std::fs::copy(bot(example), dir.join("bot")).unwrap();
    }
    let out = std::process::Command::new("bash")
        .arg(script)
        .env(root_var, root)
        .env("PROTOCHECK", env!("CARGO_BIN_EXE_protocheck"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(root.join("results/results.json")).unwrap();
    assert!(
        !text.contains(&root.display().to_string()),
        "the root's path in {text}"
    );
    serde_json::from_str(&text).unwrap()
}

fn valid(doc: &Value, schema: &str) {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(common::fixture(schema)).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}\n{doc:#}");
}

#[test]
fn gradescope_s_run_autograder_grades_a_submission() {
    let root = folder("gradescope");
    let source = root.join("source");
    std::fs::create_dir_all(&source).unwrap();
    init(&source, "gradescope");
    for name in ["setup.sh", "run_autograder"] {
        let check = std::process::Command::new("bash")
            .args(["-n"])
            .arg(source.join(name))
            .output()
            .unwrap();
        assert!(check.status.success(), "{name}: {check:?}");
    }
    let setup = std::fs::read_to_string(source.join("setup.sh")).unwrap();
    let wheel = wheel_requirement();
    assert!(
        setup.contains(&wheel),
        "setup.sh does not install {wheel}:\n{setup}"
    );
    assert!(setup.contains("pip install"), "{setup}");
    // `protocheck` on PyPI is another project's package.
    assert!(!setup.contains("protocheck=="), "{setup}");
    shorten(&source.join("protocheck.toml"));
    let script = source.join("run_autograder");
    let schema = "gradescope-results.schema.json";
    let good = grade(
        &script,
        &root,
        "AUTOGRADER_ROOT",
        "submission",
        Some("kalah-correct"),
    );
    valid(&good, schema);
    assert_eq!(good["score"], 8.0, "{good:#}");
    let broken = grade(
        &script,
        &root,
        "AUTOGRADER_ROOT",
        "submission",
        Some("kalah-zero-based"),
    );
    valid(&broken, schema);
    assert_eq!(broken["score"], 0.0);
    assert!(
        broken["tests"][0]["output"]
            .as_str()
            .unwrap()
            .contains("kalah.move.hole-range")
    );
    let none = grade(&script, &root, "AUTOGRADER_ROOT", "submission", None);
    valid(&none, schema);
    assert!(
        none["output"]
            .as_str()
            .unwrap()
            .contains("could not be started"),
        "{none:#}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn prairielearn_s_entry_script_grades_a_submission() {
    let root = folder("prairielearn");
    init(&root, "prairielearn");
    let fragment: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("info.json.fragment")).unwrap())
            .unwrap();
    assert_eq!(
        fragment["externalGradingOptions"]["entrypoint"],
        "/grade/serverFilesCourse/protocheck/run.sh"
    );
    let here = root.join("serverFilesCourse/protocheck");
    let entry = std::fs::read_to_string(here.join("run.sh")).unwrap();
    assert!(entry.contains(&wheel_requirement()), "{entry}");
    assert!(!entry.contains("protocheck=="), "{entry}");
    shorten(&here.join("protocheck.toml"));
    let script = here.join("run.sh");
    let schema = "prairielearn-results.schema.json";
    let good = grade(
        &script,
        &root,
        "PL_GRADE_ROOT",
        "student",
        Some("kalah-correct"),
    );
    valid(&good, schema);
    assert_eq!(
        (&good["gradable"], &good["score"]),
        (&Value::from(true), &Value::from(1.0))
    );
    let broken = grade(
        &script,
        &root,
        "PL_GRADE_ROOT",
        "student",
        Some("kalah-zero-based"),
    );
    valid(&broken, schema);
    assert_eq!(broken["score"], 0.0);
    let none = grade(&script, &root, "PL_GRADE_ROOT", "student", None);
    valid(&none, schema);
    assert_eq!(none["gradable"], false, "{none:#}");
    let _ = std::fs::remove_dir_all(&root);
}
