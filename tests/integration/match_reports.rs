//! The reports of `match` and `tournament` (issue 29.1): typed results
//! that validate against their published schemas (`docs/match.schema.json`,
//! `docs/tournament.schema.json`) and read back as written; several reports
//! from one run (`--report KIND[=FILE]`); and standard output to a reader
//! that went away is no panic.

use crate::common;
use common::*;
use serde_json::Value;
use std::path::Path;

const DETERMINISTIC: [(&str, &str); 1] = [("KALAH_BOT_SEED", "7")];

fn validator(schema: &str) -> jsonschema::Validator {
    let path = format!("{}/docs/{schema}", env!("CARGO_MANIFEST_DIR"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// `command` (`match` or `tournament`) of two Kalah bots, 2 games each
/// way, no listening windows, then `extra`.
fn kalah_pair(command: &str, a: &str, b: &str, extra: &[&str]) -> Vec<String> {
    let head = [
        command,
        "--game",
        "kalah",
        a,
        b,
        "--games",
        "2",
        "--silence",
        "0s",
    ];
    head.iter().chain(extra).map(|s| s.to_string()).collect()
}

/// protocheck with `args` in `dir`: (exit code, stdout, stderr).
fn protocheck(dir: &Path, args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = assert_cmd::Command::cargo_bin("protocheck")
        .unwrap()
        .current_dir(dir)
        .args(with_bot_variables(&args, &DETERMINISTIC))
        .env("KALAH_BOT_SEED", "7")
        .timeout(std::time::Duration::from_secs(240))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A match's JSON validates against its schema, an undescribed key does
/// not, and it reads back to the very text written.
fn assert_match_json(text: &str, what: &str) {
    let validator = validator("match.schema.json");
    let mut doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_valid(&validator, &doc, what);
    let back =
        protocheck::matchplay::MatchReport::read(text).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(back.json(), text, "{what}: read back as written");
    doc["games"][0]["typo"] = Value::from(1);
    assert!(!validator.is_valid(&doc), "{what}: an unknown key passed");
}

#[test]
fn a_match_and_a_tournament_validate_against_their_schemas_and_read_back_as_written() {
    let dir = tempdir();
    let a = bot("kalah-correct");
    let (code, json, stderr) =
        protocheck(&dir, &kalah_pair("match", &a, &a, &["--report", "json"]));
    assert_eq!(code, 0, "{stderr}");
    assert_match_json(&json, "match");

    let (code, json, stderr) = protocheck(
        &dir,
        &kalah_pair("tournament", &a, &a, &["--out", "t", "--report", "json"]),
    );
    assert_eq!(code, 0, "{stderr}");
    let standings = std::fs::read_to_string(dir.join("t/standings.json")).unwrap();
    assert_eq!(json, standings, "printed as saved");
    let validator = validator("tournament.schema.json");
    let mut doc: Value = serde_json::from_str(&json).unwrap();
    assert_valid(&validator, &doc, "standings.json");
    let back = protocheck::matchplay::TournamentReport::read(&json).unwrap();
    assert_eq!(back.json(), json, "standings read back as written");
    assert_eq!(back.matches.len(), 2, "{json}");
    for line in &back.matches {
        let text = std::fs::read_to_string(dir.join("t").join(&line.file)).unwrap();
        assert_match_json(&text, &line.file);
    }
    doc["standings"][0]["typo"] = Value::from(1);
    assert!(!validator.is_valid(&doc), "an unknown key passed");
}

#[test]
fn one_match_writes_json_html_human_and_junit_at_once() {
    let dir = tempdir();
    let (a, b) = (bot("kalah-correct"), bot("kalah-zero-based"));
    let (code, stdout, stderr) = protocheck(
        &dir,
        &kalah_pair(
            "match",
            &a,
            &b,
            &[
                "--report",
                "json=m.json",
                "--report",
                "html=m.html",
                "--report",
                "human=m.txt",
                "--report",
                "junit=m.xml",
            ],
        ),
    );
    assert_eq!(code, 1, "kalah-zero-based forfeits: {stderr}");
    assert_eq!(stdout, "", "every report went to its file");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();

    let json = read("m.json");
    assert_match_json(&json, "m.json");
    let report: Value = serde_json::from_str(&json).unwrap();
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert!(
        games
            .iter()
            .all(|g| g["forfeit"]["bot"] == "kalah-zero-based"),
        "{report:#}"
    );
    assert_eq!(games[1]["forfeit"]["rule"], "kalah.move.hole-range");

    let page = read("m.html");
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    for want in [
        "game 1: kalah-correct (seat 1, South) vs kalah-zero-based (seat 2, North)",
        "game 2: kalah-zero-based (seat 1, South) vs kalah-correct (seat 2, North)",
        "kalah.move.hole-range",
        // The board drawn: an HTML report asks for pictures.
        "<svg",
    ] {
        assert!(page.contains(want), "{want} not in the page");
    }

    let human = read("m.txt");
    assert!(
        human.starts_with("protocheck match: kalah, 2 games\n"),
        "{human}"
    );
    for want in [
        "  forfeit: kalah-zero-based (seat 1) broke kalah.move.hole-range",
        "kalah-correct: 2 won, 0 drawn, 0 lost (0 by forfeit), points 2; passed\n",
        "kalah-zero-based: 0 won, 0 drawn, 2 lost (2 by forfeit), points 0; failed",
        "sandbox: ",
    ] {
        assert!(human.contains(want), "{want:?} not in:\n{human}");
    }

    let junit = read("m.xml");
    assert!(
        junit.contains(
            "<testsuites name=\"protocheck match\" tests=\"4\" failures=\"2\" errors=\"0\""
        ),
        "{junit}"
    );
    assert!(
        junit.contains("<testsuite name=\"kalah: kalah-correct vs kalah-zero-based\""),
        "{junit}"
    );
    assert_eq!(junit.matches("<testcase ").count(), 4, "{junit}");
    assert_eq!(
        junit
            .matches("classname=\"kalah.kalah-zero-based\"")
            .count(),
        2
    );
    assert_eq!(
        junit.matches("<failure message=\"kalah.move.").count(),
        2,
        "{junit}"
    );
    assert!(
        junit.contains(
            "<testcase name=\"game 2 (seat 1, South)\" classname=\"kalah.kalah-zero-based\""
        ),
        "{junit}"
    );
    assert!(
        junit.contains("<property name=\"sandbox\" value=\""),
        "{junit}"
    );
}

#[test]
fn reports_a_match_cannot_write_are_bad_input_before_any_game() {
    let dir = tempdir();
    let a = bot("kalah-correct");
    for (extra, want) in [
        (
            &["--report", "json", "--report", "human"][..],
            "more than one report goes to standard output",
        ),
        (
            &["--report", "json=x", "--report", "html=x"][..],
            "two reports would be written to x",
        ),
        (
            &["--report", "github"][..],
            "unknown report `github`; the reports are human, json, html, junit",
        ),
    ] {
        let (code, stdout, stderr) = protocheck(&dir, &kalah_pair("match", &a, &a, extra));
        assert_eq!(code, 2, "{extra:?}: {stdout}{stderr}");
        assert!(stderr.contains(want), "{extra:?}: {stderr}");
    }
}

#[test]
fn a_tournament_writes_its_page_junit_and_summary_at_once() {
    let dir = tempdir();
    let a = bot("kalah-correct");
    let (code, stdout, stderr) = protocheck(
        &dir,
        &kalah_pair(
            "tournament",
            &a,
            &a,
            &[
                "--out",
                "t",
                "--report",
                "html=page.html",
                "--report",
                "junit=t.xml",
                "--report",
                "human",
            ],
        ),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("match  1: "), "{stdout}");
    assert!(stdout.contains("saved in "), "{stdout}");
    // The page outside the tournament's folder links into it.
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    assert!(
        page.contains("href=\"t/matches/01-kalah-correct-vs-kalah-correct%232.html\""),
        "{page}"
    );
    let index = std::fs::read_to_string(dir.join("t/index.html")).unwrap();
    assert!(
        index.contains("href=\"matches/01-kalah-correct-vs-kalah-correct%232.html\""),
        "{index}"
    );
    let junit = std::fs::read_to_string(dir.join("t.xml")).unwrap();
    assert_eq!(junit.matches("<testsuite ").count(), 2, "{junit}");
    assert_eq!(junit.matches("<testcase ").count(), 8, "{junit}");
    assert!(
        junit.contains("<testsuite name=\"match 01: kalah-correct vs kalah-correct#2\""),
        "{junit}"
    );
    assert!(!junit.contains("<failure"), "{junit}");
}

/// `protocheck match … | head -1`: the reader gone before protocheck
/// writes (its end of the pipe closed at once) is no panic, and the exit
/// status still says how the games went.
#[test]
fn match_and_tournament_output_to_a_reader_gone_away_is_no_panic() {
    let dir = tempdir();
    let a = bot("kalah-correct");
    let exe = assert_cmd::cargo::cargo_bin("protocheck");
    for (what, args) in [
        ("match", kalah_pair("match", &a, &a, &[])),
        (
            "tournament",
            kalah_pair("tournament", &a, &a, &["--out", "t"]),
        ),
    ] {
        let mut child = std::process::Command::new(&exe)
            .current_dir(&dir)
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{what}: {stderr}");
    }
}
