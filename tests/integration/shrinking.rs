//! Shrinking a failing generated game (docs/shrinking.md): the saved
//! shorter game still fails with the same rule when replayed, and a bot
//! that fails at random gets no shorter game claimed.

use crate::common;
use common::*;
use serde_json::Value;

/// Moves in a saved scenario: protocheck's (`opponent:`) and the bot's
/// (`expect: legal-move`).
fn moves_in(path: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| l.starts_with("- opponent:") || l.trim() == "- expect: legal-move")
        .count()
}

/// "shrunk from 39 moves to 12 in 162 runs" in a replay hint.
fn shrunk_from_to(replay: &str) -> (usize, usize) {
    let rest = replay
        .split("shrunk from ")
        .nth(1)
        .unwrap_or_else(|| panic!("no `shrunk from` in {replay}"));
    let words: Vec<&str> = rest.split_whitespace().collect();
    (words[0].parse().unwrap(), words[3].parse().unwrap())
}

fn failed(out: &Outcome) -> Vec<&Value> {
    out.report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "failed")
        .collect()
}

#[test]
fn a_deep_kalah_failure_is_saved_much_shorter_and_still_fails_with_its_rule() {
    let dir = tempdir();
    let bot = bot("kalah-late-blunder");
    // Game 2 of seed 1: the bot is North against the random opponent and
    // fails only after 39 moves, once protocheck's store holds 25 seeds.
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--games",
            "2",
            "--seed",
            "1",
            "--filter",
            "generated-002",
            "--save-failures",
            dir.to_str().unwrap(),
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.rules(), ["kalah.move.empty-hole"]);
    let scenario = failed(&out)[0];
    let saved = scenario["saved_to"].as_str().unwrap();
    let replay = scenario["replay"].as_str().unwrap();
    let shrunk = dir.join("generated-002-north-random-shrunk.yaml");
    let shrunk = shrunk.to_str().unwrap();
    assert!(
        replay.contains(&format!("--scenarios {shrunk} ")) && replay.contains(saved),
        "the hint replays the shrunk game and names the whole one: {replay}"
    );
    let (from, to) = shrunk_from_to(replay);
    assert_eq!(from, moves_in(saved), "{replay}");
    assert_eq!(to, moves_in(shrunk), "{replay}");
    assert!(to * 2 <= from, "much shorter: {replay}");

    // Replayed on its own, the shrunk game fails with the same rule.
    let again = run_json(&["--game", "kalah", "--scenarios", shrunk, &bot], &[]);
    assert_eq!(again.code, 1);
    assert_eq!(again.rules(), ["kalah.move.empty-hole"]);
    // And a conforming bot passes it: the game is legal throughout.
    let correct = run_json(
        &[
            "--game",
            "kalah",
            "--scenarios",
            shrunk,
            &common::bot("kalah-correct"),
        ],
        &[],
    );
    assert_eq!(correct.code, 0, "{:?}", correct.rules());
}

#[test]
fn a_bot_that_fails_at_random_gets_no_shorter_game() {
    let dir = tempdir();
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--games",
            "4",
            "--seed",
            "3",
            "--filter",
            "generated",
            "--save-failures",
            dir.to_str().unwrap(),
            &bot("kalah-flaky"),
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let failed = failed(&out);
    assert!(!failed.is_empty());
    for s in failed {
        let replay = s["replay"].as_str().unwrap();
        assert!(
            replay.contains("not shrunk: played again, the game did not fail the same way"),
            "{replay}"
        );
    }
    let shrunk: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("-shrunk"))
        .collect();
    assert!(shrunk.is_empty(), "{shrunk:?}");
}

#[test]
fn shrink_time_zero_turns_shrinking_off() {
    let dir = tempdir();
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--games",
            "2",
            "--seed",
            "1",
            "--filter",
            "generated-002",
            "--save-failures",
            dir.to_str().unwrap(),
            "--shrink-time",
            "0s",
            &bot("kalah-late-blunder"),
        ],
        &[],
    );
    assert_eq!(out.code, 1);
    let replay = failed(&out)[0]["replay"].as_str().unwrap();
    assert!(!replay.contains("shrunk"), "{replay}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

/// Plies in a saved QTP scenario: protocheck's moves and the engine's.
fn plies_in(path: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| {
            ["- send: genmove ", "- send: playmove ", "- send: playwall "]
                .iter()
                .any(|c| l.starts_with(c))
        })
        .count()
}

#[test]
fn a_qtp_failure_shrinks_to_the_shortest_walk_to_the_failing_position() {
    let dir = tempdir();
    let bot = bot("qtp-late-blunder");
    // Game 17 of seed 2: 7×7, the engine white against the runner, whose
    // pawn reaches the centre cell 30 moves in (walls lengthen its way);
    // the shortest game walks it there straight: 3 steps and 3 genmoves.
    // (Game 11 of seed 1, the random player's, was the example before
    // generated play aimed at jumps: docs/coverage.md.)
    let out = run_json(
        &[
            "--game",
            "quoridor",
            "--games",
            "17",
            "--seed",
            "2",
            "--filter",
            "generated-017",
            "--save-failures",
            dir.to_str().unwrap(),
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.rules(), ["quoridor.genmove.illegal"]);
    let scenario = failed(&out)[0];
    let saved = scenario["saved_to"].as_str().unwrap();
    let replay = scenario["replay"].as_str().unwrap();
    let shrunk = dir.join("generated-017-7x7-white-vs-runner-shrunk.yaml");
    let shrunk = shrunk.to_str().unwrap();
    assert!(
        replay.contains(&format!("--scenarios {shrunk} ")),
        "{replay}"
    );
    let (from, to) = shrunk_from_to(replay);
    assert_eq!((from, to), (plies_in(saved), plies_in(shrunk)), "{replay}");
    assert_eq!(to, 6, "{replay}");
    assert!(to * 2 <= from, "{replay}");
    let again = run_json(&["--game", "quoridor", "--scenarios", shrunk, &bot], &[]);
    assert_eq!(again.code, 1);
    assert_eq!(again.rules(), ["quoridor.genmove.illegal"]);
    let correct = run_json(
        &[
            "--game",
            "quoridor",
            "--scenarios",
            shrunk,
            &common::bot("qtp-correct"),
        ],
        &[],
    );
    assert_eq!(correct.code, 0, "{:?}", correct.rules());
}

/// Moves in a saved Dominion or Evolution scenario: the built-in seats'
/// plays (the `opponent:` steps other than `auto`) and the bot's replies.
fn table_moves_in(path: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| {
            (l.starts_with("- opponent:") && l.trim() != "- opponent: auto")
                || l.trim() == "- expect: legal-move"
        })
        .count()
}

/// A deep failure of a game at a table of built-in players: generated game
/// `index` of seed 1, shrunk to a game at least 4 times shorter that fails
/// with the same rule when replayed. The bot's plays are its own, so the
/// shrunk game replays only the bot it was shrunk with.
fn a_deep_table_failure_shrinks(game: &str, index: usize, bot_name: &str, rule: &str) {
    let games = index.to_string();
    let filter = format!("generated-{index:03}*");
    let dir = tempdir();
    let bot = bot(bot_name);
    let out = run_json(
        &[
            "--game",
            game,
            "--games",
            &games,
            "--seed",
            "1",
            "--filter",
            &filter,
            "--save-failures",
            dir.to_str().unwrap(),
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    // The game plays on after the bot's failures: each is the same one.
    let rules = out.rules();
    assert!(
        !rules.is_empty() && rules.iter().all(|r| r == rule),
        "{rules:?}"
    );
    let scenario = failed(&out)[0];
    let name = scenario["name"].as_str().unwrap();
    let replay = scenario["replay"].as_str().unwrap();
    let shrunk = dir.join(format!("{name}-shrunk.yaml"));
    let shrunk = shrunk.to_str().unwrap();
    assert!(
        replay.contains(&format!("--scenarios {shrunk} ")),
        "{replay}"
    );
    let (from, to) = shrunk_from_to(replay);
    assert_eq!(to, table_moves_in(shrunk), "{replay}");
    assert!(to * 4 <= from, "much shorter: {replay}");
    let again = run_json(&["--game", game, "--scenarios", shrunk, &bot], &[]);
    assert_eq!(again.code, 1);
    assert_eq!(again.rules(), [rule]);
}

#[test]
fn a_deep_dominion_text_failure_is_saved_much_shorter_and_still_fails_with_its_rule() {
    // 2 players, the bot in seat 1.
    a_deep_table_failure_shrinks(
        "dominion-text",
        1,
        "dtext-late-blunder",
        "dominion-text.action.not-in-hand",
    );
}

#[test]
fn a_deep_dominion_sexp_failure_is_saved_much_shorter_and_still_fails_with_its_rule() {
    // 2 players, the bot in seat 1, against big money and random legal.
    a_deep_table_failure_shrinks(
        "dominion-sexp",
        1,
        "dsx-late-blunder",
        "dominion-sexp.buy.too-expensive",
    );
}

#[test]
fn a_deep_evolution_failure_is_replaced_by_a_much_shorter_deal_that_fails_with_its_rule() {
    // 3 players, the bot in seat 3: dealt a carnivore of food 7 or 8 only
    // after 8 replies; another seat or deal gives it one at once.
    a_deep_table_failure_shrinks(
        "evolution",
        13,
        "evo-late-blunder",
        "evolution.choose.card-out-of-range",
    );
}
