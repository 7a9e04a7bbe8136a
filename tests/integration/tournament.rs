//! `protocheck tournament`: a round robin in both seat orders, standings
//! that add up, each match saved, the same results for any `--jobs`.

use crate::common;
use common::*;
use serde_json::Value;

const BOTS: [&str; 3] = ["kalah-correct", "kalah-zero-based", "kalah-plus-sign"];

fn tournament(jobs: &str) -> (i32, Value, std::path::PathBuf) {
    let out = tempdir();
    let bots: Vec<String> = BOTS.iter().map(|b| bot(b)).collect();
    let mut args = vec![
        "tournament",
        "--game",
        "kalah",
        "--format",
        "json",
        "--elo",
        "--jobs",
        jobs,
        "--out",
    ];
    let out_text = out.display().to_string();
    args.push(&out_text);
    args.extend(bots.iter().map(String::as_str));
    let (code, report, stderr) = protocheck_json(&args, &[("KALAH_BOT_SEED", "7")]);
    assert!(report.is_object(), "{stderr}");
    (code, report, out)
}

#[test]
fn three_bots_play_six_matches_and_the_standings_add_up_for_any_jobs() {
    let (code, one, dir) = tournament("1");
    assert_eq!(code, 1, "kalah-zero-based forfeits: {one:#}");
    let matches = one["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 6);
    let mut pairs: Vec<(String, String)> = matches
        .iter()
        .map(|m| {
            (
                m["first"].as_str().unwrap().into(),
                m["second"].as_str().unwrap().into(),
            )
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "every ordered pair once");
    for m in matches {
        let file = dir.join(m["file"].as_str().unwrap());
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(
            saved["games"].as_array().unwrap().len(),
            1,
            "{}",
            file.display()
        );
    }
    let rows = one["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let sum = |key: &str| rows.iter().map(|r| r[key].as_f64().unwrap()).sum::<f64>();
    assert_eq!(sum("games"), 12.0, "6 games, two bots each");
    assert_eq!(sum("points"), 6.0, "one point per game");
    assert_eq!(sum("wins"), sum("losses"));
    assert!(
        (sum("elo") - 3.0 * 1500.0).abs() < 1e-6,
        "Elo keeps its sum"
    );
    for r in rows {
        assert_eq!(
            r["wins"].as_f64().unwrap()
                + r["draws"].as_f64().unwrap()
                + r["losses"].as_f64().unwrap(),
            r["games"].as_f64().unwrap()
        );
    }
    let zero = rows
        .iter()
        .find(|r| r["bot"] == "kalah-zero-based")
        .unwrap();
    assert_eq!(zero["forfeits"], 4, "it forfeits all its games: {zero:#}");
    let csv = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");

    let (_, two, _) = tournament("2");
    assert_eq!(one["standings"], two["standings"], "--jobs changes nothing");
    assert_eq!(one["matches"], two["matches"]);
}

#[test]
fn the_html_page_has_the_standings_a_points_chart_and_every_match() {
    let out = tempdir();
    let (a, b) = (bot("kalah-correct"), bot("kalah-zero-based"));
    let dir = out.display().to_string();
    let (code, _, stderr) = protocheck_json(
        &[
            "tournament",
            "--game",
            "kalah",
            "--format",
            "html",
            "--out",
            &dir,
            &a,
            &b,
        ],
        &[("KALAH_BOT_SEED", "7")],
    );
    assert_eq!(code, 1, "{stderr}");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("<table class=\"standings\">") && index.contains("<svg"),
        "{index}"
    );
    assert!(
        index.contains("data-bot=\"kalah-correct\" data-points=\"2\""),
        "{index}"
    );
    for page in [
        "matches/01-kalah-correct-vs-kalah-zero-based.html",
        "matches/02-kalah-zero-based-vs-kalah-correct.html",
    ] {
        assert!(index.contains(page), "{page} linked");
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        assert!(html.contains("seat 1: START;South"), "{page}");
    }
}

/// Issue 26.5: a bot gone after the game's result was known forfeits those
/// games (it ranked 4th with nothing against it before), and a failure
/// after the result that forfeits nothing is counted: the standings (JSON,
/// CSV, text) show both.
#[test]
fn a_crash_after_the_result_forfeits_and_other_findings_are_counted_in_the_standings() {
    let out = tempdir();
    let dir = out.display().to_string();
    let bots: Vec<String> = ["qtp-correct", "qtp-exits-after-win", "qtp-short-winner"]
        .iter()
        .map(|b| bot(b))
        .collect();
    let mut args = vec![
        "tournament",
        "--game",
        "quoridor",
        "--format",
        "json",
        "--silence",
        "0s",
        "--out",
        &dir,
    ];
    args.extend(bots.iter().map(String::as_str));
    let (code, report, stderr) = protocheck_json(&args, &[]);
    assert_eq!(code, 1, "{stderr}");
    let rows = report["standings"].as_array().unwrap();
    let row = |bot: &str| rows.iter().find(|r| r["bot"] == bot).unwrap();
    let gone = row("qtp-exits-after-win");
    assert_eq!(gone["points"], 0.0, "{gone:#}");
    assert!(gone["forfeits"].as_u64().unwrap() >= 2, "{gone:#}");
    assert_eq!(rows.last().unwrap()["bot"], "qtp-exits-after-win");
    let short = row("qtp-short-winner");
    assert_eq!(short["forfeits"], 0, "{short:#}");
    assert!(short["failures"].as_u64().unwrap() >= 2, "{short:#}");
    let csv = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    assert!(
        csv.starts_with("rank,bot,games,wins,draws,losses,forfeits,failures,warnings,points,elo\n"),
        "{csv}"
    );
    let text = std::fs::read_to_string(out.join("standings.txt")).unwrap();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("forfeits  failures  warnings"),
        "{text}"
    );
}

/// Issue 26.11: `--out DIR` writes the page without `--format html`: the
/// standings with the rule that ranks them, the head-to-head table, and
/// every match with its result and links to its page and JSON (both
/// written).
#[test]
fn the_page_is_written_without_being_asked_with_every_match_and_the_head_to_head() {
    let out = tempdir();
    let (a, b) = (bot("kalah-correct"), bot("kalah-zero-based"));
    let dir = out.display().to_string();
    let (code, report, stderr) = protocheck_json(
        &[
            "tournament",
            "--game",
            "kalah",
            "--format",
            "json",
            "--silence",
            "0s",
            "--out",
            &dir,
            &a,
            &b,
        ],
        &[("KALAH_BOT_SEED", "7")],
    );
    assert_eq!(code, 1, "{stderr}");
    let index = std::fs::read_to_string(out.join("index.html")).expect("index.html written");
    assert!(
        index.contains("by the points they scored in the games between them"),
        "the tie-break rule: {index}"
    );
    assert!(
        index.contains("data-bot=\"kalah-correct\" data-against=\"kalah-zero-based\">2 of 2</td>")
            && index.contains(
                "data-bot=\"kalah-zero-based\" data-against=\"kalah-correct\">0 of 2</td>"
            ),
        "head to head: {index}"
    );
    let meetings = report["head_to_head"].as_array().unwrap();
    assert_eq!(meetings.len(), 2, "{report:#}");
    assert_eq!(meetings[0]["bot"], "kalah-correct");
    assert_eq!(meetings[0]["points"], 2.0);
    for m in report["matches"].as_array().unwrap() {
        let result = m["result"].as_str().unwrap();
        assert!(result.ends_with("; 1 by forfeit"), "{result}");
        assert!(index.contains(result), "{result} not on the page");
        for key in ["page", "file"] {
            let file = m[key].as_str().unwrap();
            assert!(
                index.contains(&format!("href=\"{file}\"")),
                "{file} not linked"
            );
            assert!(out.join(file).is_file(), "{file} not written");
        }
        let page = std::fs::read_to_string(out.join(m["page"].as_str().unwrap())).unwrap();
        assert!(
            page.contains("Result: kalah-correct won by forfeit"),
            "{page}"
        );
    }
}
