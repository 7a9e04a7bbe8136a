//! `protocheck match --game dominion-sexp|dominion-text`: 2 to 4 real bots
//! at one table, built-in players at the seats `--players` adds; every
//! message judged as in a single run, a rule broken is a forfeit with that
//! rule's id.

use crate::common;
use common::*;
use serde_json::Value;

/// Each protocol: its id, its correct sample bot, a broken one (a failing
/// rule on its first turns), and that bot's rule.
const PROTOCOLS: [(&str, &str, &str); 2] = [
    ("dominion-sexp", "dsx-correct", "dsx-extra-add"),
    ("dominion-text", "dtext-correct", "dtext-capitalised"),
];

fn play(game: &str, bots: &[&str], extra: &[&str]) -> (i32, Value, String) {
    let paths: Vec<String> = bots.iter().map(|b| bot(b)).collect();
    let mut args = vec!["match", "--game", game, "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    args.extend_from_slice(extra);
    protocheck_json(&args, &[])
}

/// The score list of a game as (side, bot or "", value).
fn scores(game: &Value) -> Vec<(String, String, i64)> {
    game["score"]
        .as_array()
        .expect("a score list")
        .iter()
        .map(|s| {
            assert_eq!(s["counts"], "victory points", "{s:#}");
            (
                s["side"].as_str().unwrap().to_string(),
                s["bot"].as_str().unwrap_or("").to_string(),
                s["value"].as_i64().expect("a value"),
            )
        })
        .collect()
}

fn seated(game: &Value) -> Vec<String> {
    game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["bot"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn two_correct_bots_play_to_the_end_with_a_score_by_seat() {
    for (game_id, correct, _) in PROTOCOLS {
        let (code, report, stderr) = play(game_id, &[correct, correct], &[]);
        assert_eq!(code, 0, "{game_id}: {report:#}\n{stderr}");
        let game = &report["games"][0];
        assert_eq!(game["outcome"], "finished", "{game_id}: {game:#}");
        assert_eq!(game["findings"].as_array().map(Vec::len), Some(0));
        assert!(game["moves"].as_u64().unwrap() > 10, "{game:#}");
        let bots = [correct.to_string(), format!("{correct}#2")];
        let score = scores(game);
        assert_eq!(
            score,
            vec![
                ("seat 1".to_string(), bots[0].clone(), score[0].2),
                ("seat 2".to_string(), bots[1].clone(), score[1].2),
            ]
        );
        match game["winner"]["seat"].as_u64() {
            // dominion-text breaks a tie on fewer turns, so a winner may
            // share the top score; nobody tops it.
            Some(seat) => {
                let me = score[seat as usize - 1].2;
                assert!(score.iter().all(|s| s.2 <= me), "{game:#}");
            }
            // No winner: a tie the rules do not break.
            None => assert_eq!(score[0].2, score[1].2, "{game:#}"),
        }
        let position = game["position"].as_str().expect("a position");
        assert!(
            position.contains("seat 1 ") && position.contains("seat 2 "),
            "{position}"
        );
        for b in report["bots"].as_array().unwrap() {
            assert_eq!(b["verdict"], "passed", "{b:#}");
            assert_eq!(b["games"], 1, "{b:#}");
        }
        // Two bots: each seat's own result is the winner's business.
        assert!(game["seats"][0].get("result").is_none(), "{game:#}");
    }
}

#[test]
fn three_correct_bots_and_a_built_in_seat_rotate_over_three_games() {
    for (game_id, correct, _) in PROTOCOLS {
        let (code, report, stderr) = play(
            game_id,
            &[correct, correct, correct],
            &["--players", "4", "--games", "3"],
        );
        assert_eq!(code, 0, "{game_id}: {report:#}\n{stderr}");
        let bots = [
            correct.to_string(),
            format!("{correct}#2"),
            format!("{correct}#3"),
        ];
        let games = report["games"].as_array().unwrap();
        assert_eq!(games.len(), 3);
        for (k, game) in games.iter().enumerate() {
            assert_eq!(game["outcome"], "finished", "{game_id}: {game:#}");
            assert_eq!(game["findings"].as_array().map(Vec::len), Some(0));
            // Game k seats the bots rotated by k − 1.
            let mut order = bots.to_vec();
            order.rotate_left(k);
            assert_eq!(seated(game), order, "{game_id} game {}", k + 1);
            // Four seats scored; the fourth is the built-in player's.
            let score = scores(game);
            let sides: Vec<&str> = score.iter().map(|s| s.0.as_str()).collect();
            assert_eq!(sides, ["seat 1", "seat 2", "seat 3", "seat 4"]);
            let owners: Vec<&str> = score.iter().map(|s| s.1.as_str()).collect();
            assert_eq!(owners, [&order[0], &order[1], &order[2], ""]);
            // Each bot's own result agrees with the scores.
            let top = score.iter().map(|s| s.2).max().unwrap();
            for (i, seat) in game["seats"].as_array().unwrap().iter().enumerate() {
                let result = seat["result"].as_str().expect("a result per seat");
                if result != "lost" {
                    assert_eq!(score[i].2, top, "{game:#}");
                }
                if result == "won" {
                    assert_eq!(game["winner"]["seat"], i + 1);
                }
            }
        }
        let played: u64 = report["bots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                assert_eq!(b["verdict"], "passed", "{b:#}");
                b["games"].as_u64().unwrap()
            })
            .sum();
        assert_eq!(played, 9, "each of 3 bots in each of 3 games");
    }
}

#[test]
fn a_broken_bot_forfeits_with_the_rule_a_single_run_gives_it() {
    for (game_id, correct, broken) in PROTOCOLS {
        let single = single_run_failures(game_id, &bot(broken));
        assert!(!single.is_empty(), "a single run fails {broken}");
        let (code, report, stderr) = play(game_id, &[broken, correct], &[]);
        assert_eq!(code, 1, "{game_id}: {report:#}\n{stderr}");
        let game = &report["games"][0];
        assert_eq!(game["outcome"], "forfeit", "{game:#}");
        let forfeit = &game["forfeit"];
        assert_eq!(
            (&forfeit["bot"], &forfeit["seat"]),
            (&broken.into(), &1.into())
        );
        let rule = forfeit["rule"].as_str().unwrap();
        assert!(single.iter().any(|r| r == rule), "{rule} not in {single:?}");
        assert_eq!(game["winner"]["bot"], correct, "{game:#}");
        assert!(forfeit["board"].as_str().is_some(), "{forfeit:#}");
        let line = forfeit["line"].as_u64().expect("the line of the bad reply") as usize;
        let text = game["transcript"][line - 1]["text"].as_str().unwrap();
        assert!(text.starts_with("seat 1: "), "{text}");
        let verdicts: Vec<(&str, &str)> = report["bots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b["bot"].as_str().unwrap(), b["verdict"].as_str().unwrap()))
            .collect();
        assert_eq!(verdicts, [(broken, "failed"), (correct, "passed")]);
    }
}

/// At a table of more than two bots a forfeit ends the game for everyone:
/// the forfeiting bot loses, nobody is named the winner.
#[test]
fn a_forfeit_at_a_table_of_three_names_no_winner() {
    for (game_id, correct, broken) in PROTOCOLS {
        let (code, report, stderr) = play(game_id, &[correct, broken, correct], &[]);
        assert_eq!(code, 1, "{game_id}: {report:#}\n{stderr}");
        let game = &report["games"][0];
        assert_eq!(game["outcome"], "forfeit", "{game:#}");
        assert_eq!(game["forfeit"]["seat"], 2, "{game:#}");
        assert!(game["winner"].is_null(), "{game:#}");
        let results: Vec<&Value> = game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["result"])
            .collect();
        assert_eq!(results, [&Value::Null, &"lost".into(), &Value::Null]);
        let broken_row = &report["bots"][1];
        assert_eq!(
            (&broken_row["losses"], &broken_row["forfeits"]),
            (&1.into(), &1.into())
        );
        assert_eq!(
            report["bots"][0]["games"], 0,
            "the game counts for nobody else"
        );
    }
}

/// Two bots beside a built-in player: a forfeit names no winner either
/// (the built-in player might have won), and counts only for the bot that
/// forfeited.
#[test]
fn a_forfeit_beside_a_built_in_player_names_no_winner() {
    for (game_id, correct, broken) in PROTOCOLS {
        let (code, report, stderr) = play(game_id, &[correct, broken], &["--players", "3"]);
        assert_eq!(code, 1, "{game_id}: {report:#}\n{stderr}");
        let game = &report["games"][0];
        assert_eq!(game["outcome"], "forfeit", "{game:#}");
        assert_eq!(game["forfeit"]["bot"], *broken, "{game:#}");
        assert!(game["winner"].is_null(), "{game_id}: {game:#}");
        assert_eq!(
            report["bots"][0]["games"], 0,
            "{game_id}: the game counts for nobody else"
        );
    }
}

#[test]
fn a_hanging_bot_forfeits_on_timeout() {
    for (game_id, correct, _) in PROTOCOLS {
        let (code, report, stderr) =
            play(game_id, &[correct, "hostile-silent"], &["--timeout", "1s"]);
        assert_eq!(code, 1, "{game_id}: {report:#}\n{stderr}");
        let forfeit = &report["games"][0]["forfeit"];
        assert_eq!(forfeit["bot"], "hostile-silent", "{report:#}");
        assert_eq!(forfeit["rule"], "io.timeout");
        assert_eq!(report["games"][0]["winner"]["bot"], correct);
    }
}

#[test]
fn a_table_dominion_cannot_seat_is_a_usage_error() {
    let correct = bot("dsx-correct");
    let five = [correct.as_str(); 5];
    let mut args = vec!["match", "--game", "dominion-sexp"];
    args.extend(five);
    let (code, _, stderr) = protocheck_json(&args, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("5 bots given"), "{stderr}");
    for (extra, said) in [
        (
            ["--players", "2"],
            "--players 2 seats fewer players than the 3 bots given",
        ),
        (["--seat", "2"], "--seat 2 means nothing in a match"),
    ] {
        let mut args = vec!["match", "--game", "dominion-text"];
        let text = bot("dtext-correct");
        args.extend([text.as_str(); 3]);
        args.extend(extra);
        let (code, _, stderr) = protocheck_json(&args, &[]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
    }
}

/// Warnings do not forfeit, and the plays they were given for are relayed
/// as their own session read them: both games finish.
#[test]
fn warnings_do_not_forfeit_and_the_game_plays_on() {
    for (game_id, warned, correct) in [
        ("dominion-sexp", "dsx-brackets", "dsx-correct"),
        ("dominion-text", "dtext-crlf-tabs", "dtext-correct"),
    ] {
        let (code, report, stderr) = play(game_id, &[warned, correct], &["--games", "2"]);
        assert_eq!(code, 0, "{game_id}: {report:#}\n{stderr}");
        for game in report["games"].as_array().unwrap() {
            assert_eq!(game["outcome"], "finished", "{game:#}");
            assert_eq!(scores(game).len(), 2);
        }
        let row = &report["bots"][0];
        assert_eq!(
            (&row["bot"], &row["verdict"]),
            (&warned.into(), &"passed".into())
        );
        assert!(row["warnings"].as_u64().unwrap() > 0, "{row:#}");
    }
}
