//! Every report says which sandbox layers confined the bots (issue 27):
//! the human line, the JSON object, the JUnit property, the HTML header,
//! `grades.csv`/`grades.json` and the class page, and the match and
//! tournament reports. What they say is the run's settled layers, here
//! those this machine's kernel offers under the default `--sandbox auto`.

use crate::common;
use assert_cmd::Command;
use common::*;
use protocheck::transport::sandbox::{Layers, SandboxOptions, settle};
use serde_json::Value;

/// The layers of a default run on this machine.
fn here() -> Layers {
    settle(&SandboxOptions::default()).expect("--sandbox auto always runs")
}

fn single_run(format: &str, extra: &[&str]) -> String {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .args([
            "--game",
            "kalah",
            "--scenarios",
            &fixture("kalah/snapshot-pass.yaml"),
            "--jobs",
            "1",
            "--color",
            "never",
            "--format",
            format,
        ])
        .args(extra)
        .arg(bot("kalah-correct"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn each_format_of_a_single_run_says_the_run_s_sandbox() {
    let layers = here();
    let value = protocheck::report::sandbox_value(&layers);
    let human = single_run("human", &[]);
    assert_eq!(
        human
            .lines()
            .filter(|l| l.starts_with("sandbox: "))
            .collect::<Vec<_>>(),
        [layers.line()],
        "{human}"
    );
    let json: Value = serde_json::from_str(&single_run("json", &[])).unwrap();
    let read: Layers = serde_json::from_value(json["sandbox"].clone()).unwrap();
    assert_eq!(read, layers);
    let junit = single_run("junit", &[]);
    assert!(
        junit.contains(&format!("<property name=\"sandbox\" value=\"{value}\"/>")),
        "{junit}"
    );
    let html = single_run("html", &[]);
    assert!(
        html.contains(&format!(
            "<div class=\"sandbox\"><dt>sandbox</dt><dd>{value}</dd></div>"
        )),
        "{html}"
    );
}

#[test]
fn grade_writes_each_bot_s_sandbox_into_the_table_and_the_class_page() {
    let class = tempdir();
    for id in ["ann", "bob"] {
        let dir = class.join("submissions").join(id);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(bot("kalah-correct"), dir.join("bot")).unwrap();
    }
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(&class)
        .args([
            "grade",
            "submissions/*/bot",
            "--jobs",
            "2",
            "--",
            "--game",
            "kalah",
            "--filter",
            "opening",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let layers = here();
    let value = protocheck::report::sandbox_value(&layers);
    let csv = std::fs::read_to_string(class.join("grades/grades.csv")).unwrap();
    let mut lines = csv.lines();
    // The sandbox column, then not_run and the score (which came later).
    assert!(
        lines
            .next()
            .unwrap()
            .ends_with(",sandbox,not_run,score,max_score"),
        "{csv}"
    );
    let cell = if value.contains(',') {
        format!(",\"{value}\"")
    } else {
        format!(",{value}")
    };
    for line in lines {
        assert!(line.ends_with(&format!("{cell},0,8,8")), "{line}");
    }
    let grades: Value =
        serde_json::from_str(&std::fs::read_to_string(class.join("grades/grades.json")).unwrap())
            .unwrap();
    for bot in grades["bots"].as_array().unwrap() {
        let read: Layers = serde_json::from_value(bot["sandbox"].clone()).unwrap();
        assert_eq!(read, layers, "{bot}");
    }
    let page = std::fs::read_to_string(class.join("grades/index.html")).unwrap();
    assert!(
        page.contains(&format!(
            "<p class=\"sandbox\">sandbox: {value} (every bot)</p>"
        )),
        "{page}"
    );
    // The bot's own reports, rebuilt by grade from its JSON, say it too.
    let text = std::fs::read_to_string(class.join("grades/ann/report.txt")).unwrap();
    assert!(text.contains(&layers.line()), "{text}");
    let _ = std::fs::remove_dir_all(&class);
}

#[test]
fn match_and_tournament_reports_say_the_sandbox() {
    let layers = here();
    let (a, b) = (bot("kalah-correct"), bot("kalah-correct"));
    let (code, report, stderr) = protocheck_json(
        &[
            "match", "--game", "kalah", "--games", "1", "--format", "json", &a, &b,
        ],
        &[("KALAH_BOT_SEED", "7")],
    );
    assert_eq!(code, 0, "{stderr}");
    let read: Layers = serde_json::from_value(report["sandbox"].clone()).unwrap();
    assert_eq!(read, layers);
    let human = Command::cargo_bin("protocheck")
        .unwrap()
        .args(["match", "--game", "kalah", "--games", "1", &a, &b])
        .args(["--pass-env", "KALAH_BOT_SEED"])
        .env("KALAH_BOT_SEED", "7")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&human.stdout);
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("sandbox: "))
            .collect::<Vec<_>>(),
        [layers.line()],
        "{text}"
    );

    let out = tempdir();
    let out_text = out.display().to_string();
    let (code, standings, stderr) = protocheck_json(
        &[
            "tournament",
            "--game",
            "kalah",
            "--games",
            "1",
            "--format",
            "json",
            "--out",
            &out_text,
            &a,
            &b,
        ],
        &[("KALAH_BOT_SEED", "7")],
    );
    assert_eq!(code, 0, "{stderr}");
    let read: Layers = serde_json::from_value(standings["sandbox"].clone()).unwrap();
    assert_eq!(read, layers);
    let first = std::fs::read_dir(out.join("matches"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a match file");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(first).unwrap()).unwrap();
    assert_eq!(saved["sandbox"], standings["sandbox"]);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        page.contains(&format!("<p class=\"sandbox\">{}</p>", layers.line())),
        "{page}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// `--sandbox off` (the flag of `cli::limit_flags`): every report says the
/// bots ran without one, and grade's table says so for each bot.
#[test]
fn sandbox_off_says_none_in_the_reports_and_the_grades() {
    let human = single_run("human", &["--sandbox", "off"]);
    assert_eq!(
        human
            .lines()
            .filter(|l| l.starts_with("sandbox: "))
            .collect::<Vec<_>>(),
        ["sandbox: none (--sandbox off)"],
        "{human}"
    );
    let json: Value = serde_json::from_str(&single_run("json", &["--sandbox", "off"])).unwrap();
    assert_eq!(json["sandbox"]["none_because"], "--sandbox off", "{json}");
    assert_eq!(json["sandbox"]["files"], false, "{json}");

    let class = tempdir();
    let dir = class.join("submissions").join("ann");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(bot("kalah-correct"), dir.join("bot")).unwrap();
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(&class)
        .args([
            "grade",
            "submissions/*/bot",
            "--",
            "--game",
            "kalah",
            "--filter",
            "opening",
            "--sandbox",
            "off",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let csv = std::fs::read_to_string(class.join("grades/grades.csv")).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .ends_with(",none (--sandbox off),0,8,8"),
        "{csv}"
    );
    let _ = std::fs::remove_dir_all(&class);
}
