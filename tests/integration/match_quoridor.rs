//! `protocheck match --game quoridor`: protocheck is the controller of two
//! engines, as the referee is: `genmove` to the engine whose colour is to
//! move, its answer told to the other engine as `playmove`/`playwall`.

use crate::common;
use common::*;
use serde_json::Value;

fn play(a: &str, b: &str, extra: &[&str]) -> (i32, Value, String) {
    let (a, b) = (bot(a), bot(b));
    let mut args = vec!["match", "--game", "quoridor", &a, &b, "--format", "json"];
    args.extend_from_slice(extra);
    protocheck_json(&args, &[])
}

fn lines(game: &Value) -> Vec<String> {
    game["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            format!(
                "{} {}",
                l["dir"].as_str().unwrap(),
                l["text"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn correct_engines_play_to_a_win_and_each_move_is_relayed_to_the_other() {
    let (code, report, stderr) = play("qtp-correct", "qtp-correct", &["--board-size", "5"]);
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_eq!(game["outcome"], "finished", "{game:#}");
    assert_eq!(
        game["findings"].as_array().map(Vec::len),
        Some(0),
        "{game:#}"
    );
    assert!(
        game["winner"]["seat"].is_u64(),
        "QTP has no draws: {game:#}"
    );
    let lines = lines(game);
    // Every genmove answer is told to the other engine as the referee does.
    let mut relayed = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("sent seat ") else {
            continue;
        };
        let (seat, command) = rest.split_once(": ").unwrap();
        let Some(colour) = command.strip_prefix("genmove ") else {
            continue;
        };
        let answer = lines[i + 1..]
            .iter()
            .find_map(|l| l.strip_prefix(&format!("received seat {seat}: = ")))
            .expect("the genmove is answered");
        let other = if seat == "1" { "2" } else { "1" };
        let mut parts = answer.split_whitespace();
        let vertex = parts.next().unwrap();
        let want = match parts.next() {
            None => format!("sent seat {other}: playmove {colour} {vertex}"),
            Some("h") => format!("sent seat {other}: playwall {colour} {vertex} horizontal"),
            Some(_) => format!("sent seat {other}: playwall {colour} {vertex} vertical"),
        };
        assert!(
            lines[i..].contains(&want),
            "{want} after line {i}: {lines:#?}"
        );
        relayed += 1;
    }
    assert_eq!(relayed as u64, game["moves"].as_u64().unwrap());
    // Set up the way the referee does, each engine on its own.
    for seat in ["1", "2"] {
        for cmd in ["boardsize 5", "clear_board", "walls 3"] {
            assert!(
                lines.contains(&format!("sent seat {seat}: {cmd}")),
                "{cmd}: {lines:#?}"
            );
        }
    }
}

#[test]
fn an_engine_that_does_not_play_its_own_genmove_forfeits_with_the_single_run_rule() {
    let single = single_run_failures("quoridor", &bot("qtp-genmove-not-applied"));
    let (code, report, stderr) = play("qtp-correct", "qtp-genmove-not-applied", &[]);
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_eq!(game["outcome"], "forfeit");
    let forfeit = &game["forfeit"];
    assert_eq!(forfeit["bot"], "qtp-genmove-not-applied");
    assert_eq!(forfeit["seat"], 2);
    let rule = forfeit["rule"].as_str().unwrap();
    assert_eq!(rule, "quoridor.genmove.illegal");
    assert!(single.iter().any(|r| r == rule), "{rule} not in {single:?}");
    assert_eq!(game["winner"]["bot"], "qtp-correct");
    assert!(forfeit["board"].is_string(), "{forfeit:#}");
}

/// Stray lines the referee reads past are warnings in a match as in a
/// single run: counted, never a forfeit.
#[test]
fn stray_lines_around_answers_are_no_forfeit() {
    let (code, report, stderr) = play(
        "qtp-stray-before-answer",
        "qtp-stray-after-answer",
        &["--games", "2", "--board-size", "5"],
    );
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    for game in report["games"].as_array().unwrap() {
        assert_eq!(game["outcome"], "finished", "{game:#}");
        let findings = game["findings"].as_array().unwrap();
        assert!(!findings.is_empty(), "{game:#}");
        for f in findings {
            assert_eq!(
                (&f["rule"], &f["severity"]),
                (&Value::from("io.unexpected-output"), &Value::from("warn")),
                "{game:#}"
            );
        }
    }
}

#[test]
fn seats_alternate_colours() {
    let (code, report, stderr) = play(
        "qtp-correct",
        "qtp-correct",
        &["--games", "2", "--board-size", "5"],
    );
    assert_eq!(code, 0, "{stderr}");
    let seat_one = |g: usize| {
        let s = &report["games"][g]["seats"][0];
        (
            s["bot"].as_str().unwrap().to_string(),
            s["side"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(
        seat_one(0),
        ("qtp-correct".to_string(), "black".to_string())
    );
    assert_eq!(
        seat_one(1),
        ("qtp-correct#2".to_string(), "black".to_string())
    );
}

/// Issue 26.5: an engine that exits once somebody has won, before `quit`,
/// is `io.crash` in a single run; in a match it forfeits the game although
/// its result was known (the referee's next write to it ends the match),
/// also the game it had won by the moves.
#[test]
fn an_engine_gone_after_the_win_forfeits_even_the_game_it_won() {
    let single = single_run_failures("quoridor", &bot("qtp-exits-after-win"));
    assert!(single.iter().any(|r| r == "io.crash"), "{single:?}");
    let (code, report, stderr) = play(
        "qtp-correct",
        "qtp-exits-after-win",
        &["--games", "2", "--silence", "0s"],
    );
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    for game in report["games"].as_array().unwrap() {
        assert_eq!(game["outcome"], "forfeit", "{game:#}");
        let forfeit = &game["forfeit"];
        assert_eq!(forfeit["bot"], "qtp-exits-after-win", "{game:#}");
        assert_eq!(forfeit["rule"], "io.crash", "{game:#}");
        assert_eq!(forfeit["after_result"], true, "{forfeit:#}");
        assert_eq!(game["winner"]["bot"], "qtp-correct", "{game:#}");
        // The game had reached its end: its score is kept.
        assert_eq!(game["score"].as_array().map(Vec::len), Some(2), "{game:#}");
    }
    // Seat 2 (white) in game 1 reached its goal row first: a game it won
    // by the moves, lost by the forfeit.
    let first = &report["games"][0];
    let last_move = first["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|l| {
            l["text"]
                .as_str()
                .unwrap()
                .starts_with("seat 1: playmove white")
        });
    assert!(last_move.is_some(), "white moved last: {first:#}");
    let row = |bot: &str| {
        report["bots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["bot"] == bot)
            .unwrap()
            .clone()
    };
    let gone = row("qtp-exits-after-win");
    assert_eq!(
        (&gone["forfeits"], &gone["losses"], &gone["points"]),
        (&2.into(), &2.into(), &0.0.into()),
        "{gone:#}"
    );
    assert_eq!(row("qtp-correct")["points"], 2.0);
}

/// A failure after the result that the referee only reports (a `winner`
/// answer it disagrees with) leaves the result standing, and is counted
/// in the bot's tally: a finding in a match is a forfeit or is counted.
#[test]
fn a_failure_after_the_result_that_the_referee_only_reports_is_counted() {
    let (code, report, stderr) = play(
        "qtp-correct",
        "qtp-short-winner",
        &["--games", "2", "--silence", "0s"],
    );
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    for game in report["games"].as_array().unwrap() {
        assert_eq!(game["outcome"], "finished", "{game:#}");
        assert!(game["forfeit"].is_null(), "{game:#}");
    }
    let short = report["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["bot"] == "qtp-short-winner")
        .unwrap();
    assert_eq!(short["forfeits"], 0, "{short:#}");
    assert_eq!(
        short["failures"], 2,
        "one wrong `winner` per game: {short:#}"
    );
    assert_eq!(short["warnings"], 0, "{short:#}");
    assert_eq!(short["verdict"], "failed");
}
