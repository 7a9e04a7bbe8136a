//! `protocheck match --shrink-time` (docs/shrinking.md, "Matches"): a
//! forfeited game's shortest counterpart among the match's other games,
//! both bots re-run on each, found and named so that it replays.

use crate::common;
use common::*;
use serde_json::Value;

/// "shrunk from 12 moves to 3 in 37 runs: game 7 …" as (12, 3, 7).
fn shrunk(text: &str) -> (usize, usize, usize) {
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(&words[..2], ["shrunk", "from"], "{text}");
    let game = text.split("game ").nth(1).unwrap();
    (
        words[2].parse().unwrap(),
        words[5].parse().unwrap(),
        game.split_whitespace().next().unwrap().parse().unwrap(),
    )
}

fn game(report: &Value, number: usize) -> &Value {
    report["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["number"] == number)
        .unwrap()
}

#[test]
fn a_forfeited_match_game_is_matched_by_a_much_shorter_game_that_forfeits_the_same_way() {
    let blunder = bot("evo-late-blunder");
    let correct = bot("evo-correct");
    // Game 4 of this Evolution match: evo-late-blunder in seat 2 is dealt a
    // carnivore of food 8 only after 12 moves, and forfeits.
    let (code, report, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "evolution",
            &blunder,
            &correct,
            "--games",
            "4",
            "--shrink-time",
            "60s",
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(code, 1, "{stderr}");
    let forfeited = game(&report, 4);
    assert_eq!(forfeited["forfeit"]["bot"], "evo-late-blunder");
    let rule = forfeited["forfeit"]["rule"].as_str().unwrap();
    assert_eq!(rule, "evolution.choose.card-out-of-range");
    let note = forfeited["shrunk"].as_str().unwrap();
    let (from, to, other) = shrunk(note);
    assert_eq!(
        from,
        forfeited["moves"].as_u64().unwrap() as usize,
        "{note}"
    );
    assert!(to * 2 <= from, "much shorter: {note}");
    // The game it names forfeits the same way, in that many moves, when the
    // match is played to it.
    let games = other.to_string();
    let (_, again, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "evolution",
            &blunder,
            &correct,
            "--games",
            &games,
            "--format",
            "json",
        ],
        &[],
    );
    let replayed = game(&again, other);
    assert_eq!(replayed["forfeit"]["bot"], "evo-late-blunder", "{stderr}");
    assert_eq!(replayed["forfeit"]["rule"], rule);
    assert_eq!(replayed["moves"].as_u64().unwrap() as usize, to);
}

#[test]
fn without_shrink_time_a_match_is_not_shrunk() {
    let (code, report, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "evolution",
            &bot("evo-late-blunder"),
            &bot("evo-correct"),
            "--games",
            "1",
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(game(&report, 1)["forfeit"].is_object());
    assert!(game(&report, 1).get("shrunk").is_none());
}

#[test]
fn a_tournament_shrinks_its_forfeited_games_within_the_budget() {
    // A budget too small to play any game again: the forfeit is noted as
    // not shrunk, and nothing is claimed.
    let dir = tempdir();
    let (_, _, stderr) = protocheck_json(
        &[
            "tournament",
            "--game",
            "evolution",
            &bot("evo-late-blunder"),
            &bot("evo-correct"),
            "--games",
            "1",
            "--shrink-time",
            "1ns",
            "--out",
            dir.to_str().unwrap(),
            "--format",
            "json",
        ],
        &[],
    );
    let text = std::fs::read_to_string(dir.join("matches/01-evo-late-blunder-vs-evo-correct.json"))
        .unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let report: Value = serde_json::from_str(&text).unwrap();
    let first = game(&report, 1);
    assert_eq!(first["forfeit"]["bot"], "evo-late-blunder");
    assert_eq!(
        first["shrunk"],
        "not shrunk: --shrink-time 1ns ran out before game 1 was played again"
    );
}
