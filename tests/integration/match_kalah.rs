//! `protocheck match --game kalah`: two real bots, protocheck the engine
//! between them; every message judged as in a single run, a rule broken is
//! a forfeit with that rule's id.

use crate::common;
use common::*;
use serde_json::Value;

const DETERMINISTIC: [(&str, &str); 1] = [("KALAH_BOT_SEED", "7")];

fn play(a: &str, b: &str, extra: &[&str], envs: &[(&str, &str)]) -> (i32, Value, String) {
    let (a, b) = (bot(a), bot(b));
    let mut args = vec!["match", "--game", "kalah", &a, &b, "--format", "json"];
    args.extend_from_slice(extra);
    protocheck_json(&args, envs)
}

fn counts(position: &Value) -> Vec<u32> {
    position
        .as_str()
        .expect("a finished game has a position")
        .split(',')
        .map(|n| n.parse().expect("a count"))
        .collect()
}

#[test]
fn correct_bots_play_to_the_end_and_the_board_adds_up() {
    let (code, report, stderr) = play("kalah-correct", "kalah-correct", &[], &DETERMINISTIC);
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_eq!(game["outcome"], "finished", "{game:#}");
    assert_eq!(
        game["findings"].as_array().map(Vec::len),
        Some(0),
        "{game:#}"
    );
    let counts = counts(&game["position"]);
    assert_eq!(counts.len(), 16);
    assert_eq!(counts.iter().sum::<u32>(), 98, "7 holes × 7 seeds × 2");
    // The score is the stores (wire order: North's store at 7, South's at 15).
    let store = |side: &str| side_score(game, side);
    assert_eq!((store("North"), store("South")), (counts[7], counts[15]));
    let sides_at_end: Vec<&str> = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["side_at_end"].as_str().expect("a side at the end"))
        .collect();
    match game["winner"]["seat"].as_u64() {
        Some(seat) => {
            let winner_side = sides_at_end[seat as usize - 1];
            let loser_side = sides_at_end[2 - seat as usize];
            assert!(store(winner_side) > store(loser_side), "{game:#}");
        }
        None => assert_eq!(store("North"), store("South"), "{game:#}"),
    }
    assert!(game["moves"].as_u64().unwrap() > 0);
    for b in report["bots"].as_array().unwrap() {
        assert_eq!(b["verdict"], "passed", "{b:#}");
    }
}

#[test]
fn a_broken_bot_forfeits_with_the_rule_a_single_run_gives_it() {
    let single = single_run_failures("kalah", &bot("kalah-zero-based"));
    assert!(!single.is_empty(), "a single run fails kalah-zero-based");
    let (code, report, stderr) = play("kalah-zero-based", "kalah-correct", &[], &DETERMINISTIC);
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_eq!(game["outcome"], "forfeit", "{game:#}");
    let forfeit = &game["forfeit"];
    assert_eq!(forfeit["bot"], "kalah-zero-based");
    assert_eq!(forfeit["seat"], 1);
    let rule = forfeit["rule"].as_str().unwrap();
    assert!(single.iter().any(|r| r == rule), "{rule} not in {single:?}");
    assert_eq!(game["winner"]["bot"], "kalah-correct");
    assert!(
        forfeit["board"]
            .as_str()
            .is_some_and(|b| b.contains("S store"))
    );
    // The line it points at is the bot's message, in the transcript.
    let line = forfeit["line"].as_u64().expect("the message's line") as usize;
    let text = game["transcript"][line - 1]["text"].as_str().unwrap();
    assert_eq!(
        text,
        format!("seat 1: {}", forfeit["actual"].as_str().unwrap())
    );
    let verdicts: Vec<(&str, &str)> = report["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["bot"].as_str().unwrap(), b["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [("kalah-zero-based", "failed"), ("kalah-correct", "passed")]
    );
}

#[test]
fn a_hanging_bot_forfeits_on_timeout_and_its_process_group_is_killed() {
    let tag = marker("match-waits-forever");
    let (code, report, stderr) = play(
        "kalah-waits-forever",
        "kalah-correct",
        &["--timeout", "1s"],
        &[("PROTOCHECK_TEST_MARKER", &tag)],
    );
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    let forfeit = &report["games"][0]["forfeit"];
    assert_eq!(forfeit["bot"], "kalah-waits-forever", "{report:#}");
    assert_eq!(forfeit["rule"], "io.timeout");
    #[cfg(target_os = "linux")]
    assert_eq!(
        live_processes_with(&tag),
        Vec::<u32>::new(),
        "no bot outlives the match"
    );
}

#[test]
fn seats_alternate_from_game_to_game_and_warnings_do_not_forfeit() {
    let (code, report, stderr) = play(
        "kalah-correct",
        "kalah-plus-sign",
        &["--games", "2"],
        &DETERMINISTIC,
    );
    // kalah-plus-sign's `MOVE;+3` is a warning: it does not forfeit.
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    for game in report["games"].as_array().unwrap() {
        assert_eq!(game["outcome"], "finished", "{game:#}");
    }
    let plus = &report["bots"][1];
    assert_eq!(plus["bot"], "kalah-plus-sign");
    assert_eq!(plus["verdict"], "passed");
    assert!(plus["warnings"].as_u64().unwrap() > 0, "{plus:#}");
    let seated = |game: usize| -> Vec<(String, String)> {
        report["games"][game]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["bot"].as_str().unwrap().to_string(),
                    s["side"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let pair = |a: &str, b: &str| {
        vec![
            (a.to_string(), "South".to_string()),
            (b.to_string(), "North".to_string()),
        ]
    };
    assert_eq!(seated(0), pair("kalah-correct", "kalah-plus-sign"));
    assert_eq!(seated(1), pair("kalah-plus-sign", "kalah-correct"));
    // Each bot's START names its seat's side.
    let first_lines: Vec<&str> = report["games"][1]["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .take(2)
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(first_lines, ["seat 1: START;South", "seat 2: START;North"]);
}

#[test]
fn a_bot_that_is_no_program_and_an_unknown_game_are_usage_errors() {
    let correct = bot("kalah-correct");
    let (code, _, stderr) =
        protocheck_json(&["match", "--game", "kalah", &correct, "/no/such/bot"], &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("/no/such/bot") && stderr.contains("names no executable"),
        "{stderr}"
    );
    // Every game plays matches now (Evolution was the last without): a
    // game protocheck does not know is the usage error, naming them all.
    let (code, _, stderr) = protocheck_json(&["match", "--game", "chess", &correct, &correct], &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("unknown game `chess`") && stderr.contains("evolution"),
        "{stderr}"
    );
}

/// A table the game cannot seat is bad input before any bot runs: the
/// wrong number of bots, and options the game refuses (said by the game,
/// as in a single run).
#[test]
fn a_table_the_game_cannot_seat_is_a_usage_error() {
    let correct = bot("kalah-correct");
    let (code, _, stderr) = protocheck_json(
        &["match", "--game", "kalah", &correct, &correct, &correct],
        &[],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("3 bots given: a Kalah table seats 2"),
        "{stderr}"
    );
    let (code, _, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "kalah",
            &correct,
            &correct,
            "--players",
            "3",
        ],
        &[],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("Kalah is a two-player game"), "{stderr}");
    let qtp = bot("qtp-correct");
    let (code, _, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "quoridor",
            &qtp,
            &qtp,
            "--board-size",
            "4",
        ],
        &[],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--board-size 4") && stderr.contains("odd board sizes only"),
        "{stderr}"
    );
}

/// The JSON of a match (documented in docs/match.md), pinned with timings,
/// paths and the version masked.
#[test]
fn the_match_json_is_pinned() {
    let (code, report, stderr) = play(
        "kalah-zero-based",
        "kalah-correct",
        &["--games", "2"],
        &DETERMINISTIC,
    );
    assert_eq!(code, 1, "{stderr}");
    let text = serde_json::to_string_pretty(&report).unwrap();
    let examples = std::path::Path::new(&bot("kalah-correct"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let text = canonical_sandbox(&text)
        .replace(&examples, "<examples>")
        .replace(protocheck::build_info::LONG, "<version>")
        .replace(env!("CARGO_PKG_VERSION"), "<version>");
    let text = regex::Regex::new(r#""(duration_ms|ms|wall_ms|own_ms)": \d+"#)
        .unwrap()
        .replace_all(&text, r#""$1": 0"#)
        .into_owned();
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("match-kalah-json", text);
    });
}

#[test]
fn the_html_page_steps_through_every_game_with_both_bots_lines() {
    let (a, b) = (bot("kalah-correct"), bot("kalah-zero-based"));
    let out = assert_cmd::Command::cargo_bin("protocheck")
        .unwrap()
        .args([
            "match", "--game", "kalah", &a, &b, "--games", "2", "--format", "html",
        ])
        .args(["--pass-env", "KALAH_BOT_SEED"])
        .env("KALAH_BOT_SEED", "7")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    for want in [
        "game 1: kalah-correct (seat 1, South) vs kalah-zero-based (seat 2, North)",
        "game 2: kalah-zero-based (seat 1, South) vs kalah-correct (seat 2, North)",
        "seat 1: START;South",
        "seat 2: START;North",
        "kalah.move.hole-range",
        "<svg",
    ] {
        assert!(page.contains(want), "{want} not in the page");
    }
}

/// A game played to its end (no finding) is stepped through with its board
/// too, not only a forfeited one.
#[test]
fn the_html_page_steps_through_a_game_played_to_the_end() {
    let a = bot("kalah-correct");
    let out = assert_cmd::Command::cargo_bin("protocheck")
        .unwrap()
        .args(["match", "--game", "kalah", &a, &a, "--format", "html"])
        .args(["--pass-env", "KALAH_BOT_SEED"])
        .env("KALAH_BOT_SEED", "7")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains("class=\"stepper\""), "no step-through");
    assert!(page.matches("<svg").count() > 10, "too few boards");
}

/// Issue 26.11: each game's block on the match page says who won and why:
/// for a forfeit the bot, its seat and side, the rule, the message and
/// its transcript line; for a game played out, that it ended by the rules.
#[test]
fn the_html_page_says_who_won_each_game_and_why() {
    let (a, b) = (bot("kalah-correct"), bot("kalah-zero-based"));
    let html = |bots: [&str; 2]| {
        let out = assert_cmd::Command::cargo_bin("protocheck")
            .unwrap()
            .args(["match", "--game", "kalah", bots[0], bots[1]])
            .args(["--games", "2", "--silence", "0s", "--format", "html"])
            .args(["--pass-env", "KALAH_BOT_SEED"])
            .env("KALAH_BOT_SEED", "7")
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (_, report, _) = play(
        &a,
        &b,
        &["--games", "2", "--silence", "0s"],
        &[("KALAH_BOT_SEED", "7")],
    );
    let page = html([&a, &b]);
    for game in report["games"].as_array().unwrap() {
        let f = &game["forfeit"];
        let side = if f["seat"] == 1 { "South" } else { "North" };
        let want = format!(
            "Result: kalah-correct won by forfeit after {} moves. Why: kalah-zero-based (seat {}, {side}) \
             broke <code>{}</code> with <code>{}</code> (transcript line {}): ",
            game["moves"],
            f["seat"],
            f["rule"].as_str().unwrap(),
            f["actual"].as_str().unwrap(),
            f["line"]
        );
        assert!(page.contains(&want), "{want}\nnot in the page");
    }
    let played_out = html([&a, &a]);
    assert!(
        played_out.contains("won after")
            && played_out.contains("Why: the game reached its end by the rules."),
        "no result on the page of a game played out"
    );
}

#[test]
fn without_pauses_the_same_game_is_played_and_judged() {
    let (code, paused, _) = play("kalah-correct", "kalah-correct", &[], &DETERMINISTIC);
    let (quiet_code, quiet, stderr) = play(
        "kalah-correct",
        "kalah-correct",
        &["--silence", "0s"],
        &DETERMINISTIC,
    );
    assert_eq!((code, quiet_code), (0, 0), "{stderr}");
    for key in ["winner", "position", "moves", "score", "findings"] {
        assert_eq!(paused["games"][0][key], quiet["games"][0][key], "{key}");
    }
}

/// Output sent out of turn is still seen in a match where the pause before
/// a relayed move is proved idle from a look taken during the other bot's
/// turn: each out-of-turn sample bot forfeits, with its rule, in exactly the
/// games where its seat provokes its defect, three matches in a row.
#[test]
fn out_of_turn_output_forfeits_with_its_rule_in_every_game_that_provokes_it() {
    /// The bot, its environment, and the rule it forfeits by in games 1-4.
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], [Option<&'a str>; 4]);
    let cases: &[Case] = &[
        (
            "kalah-opening-extra-turn",
            &[],
            [
                Some("kalah.turn.no-extra-turn"),
                None,
                Some("kalah.turn.no-extra-turn"),
                None,
            ],
        ),
        (
            "kalah-slow-opp-reply",
            &[],
            [Some("kalah.turn.no-extra-turn"); 4],
        ),
        (
            "kalah-move-after-swap",
            &[("KALAH_BOT_SWAP", "always")],
            [
                None,
                Some("kalah.turn.move-after-swap"),
                None,
                Some("kalah.turn.move-after-swap"),
            ],
        ),
    ];
    for &(name, envs, want) in cases {
        for _ in 0..3 {
            let (_, report, stderr) = play(name, "kalah-correct", &["--games", "4"], envs);
            let got: Vec<Option<&str>> = report["games"]
                .as_array()
                .expect("games")
                .iter()
                .map(|g| g["forfeit"]["rule"].as_str())
                .collect();
            assert_eq!(got, want, "{name}\n{stderr}");
            for game in report["games"].as_array().unwrap() {
                if !game["forfeit"].is_null() {
                    assert_eq!(game["forfeit"]["bot"], name, "{game:#}");
                }
            }
        }
    }
}

/// Games played at once give the same games: `--jobs 1` and `--jobs 3`
/// agree on every game's seats, result, score and findings.
#[test]
fn games_played_at_once_give_the_same_results() {
    let strip = |report: &Value| -> Vec<Value> {
        report["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|g| {
                serde_json::json!([
                    g["number"],
                    g["seats"],
                    g["outcome"],
                    g["winner"],
                    g["score"],
                    g["position"],
                    g["moves"],
                    g["forfeit"]["rule"],
                    g["findings"]
                        .as_array()
                        .map(|f| f.iter().map(|f| f["rule"].clone()).collect::<Vec<_>>())
                ])
            })
            .collect()
    };
    let one = play(
        "kalah-correct",
        "kalah-zero-based",
        &["--games", "5", "--jobs", "1"],
        &DETERMINISTIC,
    );
    let three = play(
        "kalah-correct",
        "kalah-zero-based",
        &["--games", "5", "--jobs", "3"],
        &DETERMINISTIC,
    );
    assert_eq!((one.0, three.0), (1, 1), "{}\n{}", one.2, three.2);
    assert_eq!(strip(&one.1), strip(&three.1));
    assert_eq!(one.1["games"].as_array().unwrap().len(), 5);
}

/// Each bot runs in its own folder, as `grade` runs it: a bot that reads a
/// file beside it (a student's weights) finds it, whatever folder
/// protocheck was started in.
#[test]
fn each_bot_runs_in_its_own_folder() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempdir();
    let correct = bot("kalah-correct");
    let mut bots = Vec::new();
    for name in ["alice", "bob"] {
        let folder = root.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("weights"), name).unwrap();
        // A self-contained submission: its program in its own folder (the
        // sandbox lets a bot run only what its folders and the system hold).
        let program = folder.join("kalah-correct");
        std::fs::hard_link(&correct, &program)
            .or_else(|_| std::fs::copy(&correct, &program).map(|_| ()))
            .unwrap();
        let script = folder.join("bot");
        std::fs::write(
            &script,
            format!("#!/bin/sh\n[ \"$(cat weights)\" = {name} ] || exit 3\nexec ./kalah-correct\n"),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        bots.push(script.display().to_string());
    }
    let (code, report, stderr) = protocheck_json(
        &[
            "match", "--game", "kalah", &bots[0], &bots[1], "--format", "json",
        ],
        &DETERMINISTIC,
    );
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    assert_eq!(report["games"][0]["outcome"], "finished", "{report:#}");
}
