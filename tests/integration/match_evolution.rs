//! `protocheck match --game evolution`: 2 to 8 clients over TCP at one
//! table, built-in players in the seats no client takes; every message
//! judged as in a single run, a rule broken is a forfeit with that rule's id.

use crate::common;
use common::*;
use serde_json::Value;

fn play(bots: &[&str], extra: &[&str], envs: &[(&str, &str)]) -> (i32, Value, String) {
    let paths: Vec<String> = bots.iter().map(|b| bot(b)).collect();
    let mut args = vec!["match", "--game", "evolution", "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    args.extend_from_slice(extra);
    protocheck_json(&args, envs)
}

/// The seats of a game: (bot, side).
fn seated(game: &Value) -> Vec<(String, String)> {
    game["seats"]
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
}

/// A game played to its end: a score for every seat at the table, by
/// seat, each naming the client there (built-in seats none), and a winner
/// that has the one top score (or none: the top is shared or a built-in
/// player's).
fn assert_scored_by_seat(game: &Value, players: usize) {
    assert_eq!(game["outcome"], "finished", "{game:#}");
    let score = game["score"].as_array().expect("a score list");
    assert_eq!(score.len(), players, "{game:#}");
    let seats = seated(game);
    for (i, s) in score.iter().enumerate() {
        assert_eq!(s["side"], format!("seat {}", i + 1), "{game:#}");
        assert_eq!(s["counts"], "bag + boards + traits");
        match seats.get(i) {
            Some((bot, _)) => assert_eq!(s["bot"], bot.as_str(), "{game:#}"),
            None => assert!(s["bot"].is_null(), "a built-in seat: {game:#}"),
        }
    }
    let values: Vec<u64> = score.iter().map(|s| s["value"].as_u64().unwrap()).collect();
    let top = *values.iter().max().unwrap();
    let at_top: Vec<usize> = (0..players).filter(|&i| values[i] == top).collect();
    match game["winner"]["seat"].as_u64() {
        Some(seat) => assert_eq!(at_top, [seat as usize - 1], "{game:#}"),
        None => assert!(
            at_top.len() > 1 || at_top[0] >= seats.len(),
            "no winner, yet one client has the top score: {game:#}"
        ),
    }
    assert!(
        game["position"]
            .as_str()
            .is_some_and(|p| p.contains(&format!("seat {players}: bag"))),
        "{game:#}"
    );
    assert!(game["moves"].as_u64().unwrap() > 0, "{game:#}");
}

#[test]
fn three_correct_clients_play_to_the_end_with_no_findings() {
    let (code, report, stderr) = play(&["evo-correct", "evo-correct", "evo-pretty-crlf"], &[], &[]);
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_scored_by_seat(game, 3);
    assert_eq!(
        game["findings"].as_array().map(Vec::len),
        Some(0),
        "{game:#}"
    );
    assert_eq!(
        seated(game),
        [
            ("evo-correct".to_string(), "seat 1".to_string()),
            ("evo-correct#2".to_string(), "seat 2".to_string()),
            ("evo-pretty-crlf".to_string(), "seat 3".to_string()),
        ]
    );
    for b in report["bots"].as_array().unwrap() {
        assert_eq!(b["verdict"], "passed", "{b:#}");
        assert_eq!(b["games"], 1, "every client's game counts: {b:#}");
    }
    // Each client connected over its own connection and signed up.
    let lines: Vec<&str> = game["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    for seat in 1..=3 {
        let connected = format!("seat {seat}: the bot connected");
        assert!(
            lines.iter().any(|l| l.starts_with(&connected)),
            "{lines:#?}"
        );
        assert!(lines.contains(&format!("seat {seat}: \"ok\"").as_str()));
    }
}

#[test]
fn two_clients_sit_with_a_built_in_player() {
    let (code, report, stderr) = play(&["evo-correct", "evo-pretty-crlf"], &[], &[]);
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_eq!(seated(game).len(), 2);
    // Three players: the third seat is a built-in player's.
    assert_scored_by_seat(game, 3);
    // --players seats more built-in players.
    let (code, report, stderr) = play(
        &["evo-correct", "evo-pretty-crlf"],
        &["--players", "5"],
        &[],
    );
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    assert_scored_by_seat(&report["games"][0], 5);
    // No client is ever sent a move by another: each gets only the
    // dealer's messages, the `choose` with the boards of all 5 players.
    let choose = report["games"][0]["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["text"].as_str())
        .find(|t| t.starts_with("seat 1: [[],"))
        .expect("seat 1's first choose")
        .to_string();
    let value: Value = serde_json::from_str(choose.trim_start_matches("seat 1: ")).unwrap();
    assert_eq!(value[1].as_array().map(Vec::len), Some(5), "{choose}");
}

#[test]
fn a_broken_client_forfeits_with_the_rule_a_single_run_gives_it() {
    for (broken, rule) in [
        ("evo-tagged-growth", "evolution.choose.tagged-growth"),
        (
            "evo-undelimited-number",
            "evolution.frame.undelimited-number",
        ),
    ] {
        let single = single_run_failures("evolution", &bot(broken));
        assert_eq!(single, [rule], "a single run of {broken}");
        let (code, report, stderr) = play(&["evo-correct", broken, "evo-pretty-crlf"], &[], &[]);
        assert_eq!(code, 1, "{report:#}\n{stderr}");
        let game = &report["games"][0];
        assert_eq!(game["outcome"], "forfeit", "{game:#}");
        let forfeit = &game["forfeit"];
        assert_eq!(forfeit["bot"], broken, "{game:#}");
        assert_eq!(forfeit["seat"], 2);
        assert_eq!(forfeit["rule"], rule, "{game:#}");
        // Three clients at the table: a forfeit names no winner.
        assert!(game["winner"].is_null(), "{game:#}");
        assert!(
            forfeit["board"]
                .as_str()
                .is_some_and(|b| b.contains("the bot plays seat")),
            "{forfeit:#}"
        );
        if let Some(actual) = forfeit["actual"].as_str()
            && let Some(line) = forfeit["line"].as_u64()
        {
            let text = game["transcript"][line as usize - 1]["text"]
                .as_str()
                .unwrap();
            // A number that never ended is kept as cut short.
            let text = text.strip_suffix(" (incomplete)").unwrap_or(text);
            assert_eq!(text, format!("seat 2: {actual}"));
        }
        let verdicts: Vec<(&str, &str, u64)> = report["bots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["bot"].as_str().unwrap(),
                    b["verdict"].as_str().unwrap(),
                    b["forfeits"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            verdicts,
            [
                ("evo-correct", "passed", 0),
                (broken, "failed", 1),
                ("evo-pretty-crlf", "passed", 0)
            ]
        );
    }
}

#[test]
fn a_hanging_client_forfeits_on_timeout_and_every_client_is_killed() {
    // It waits for `choose` after reading `start` and `choose` in one read:
    // seat 1 gets both in one write.
    let tag = marker("evo-match-hangs");
    let (code, report, stderr) = play(
        &[
            "evo-reads-before-buffered",
            "evo-correct",
            "evo-pretty-crlf",
        ],
        &[],
        &[("PROTOCHECK_TEST_MARKER", &tag)],
    );
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    let forfeit = &game["forfeit"];
    assert_eq!(forfeit["bot"], "evo-reads-before-buffered", "{game:#}");
    assert_eq!(forfeit["seat"], 1);
    assert_eq!(forfeit["rule"], "io.timeout");
    assert_eq!(report["bots"][1]["verdict"], "passed");
    assert_eq!(report["bots"][2]["verdict"], "passed");
    #[cfg(target_os = "linux")]
    assert_eq!(
        live_processes_with(&tag),
        Vec::<u32>::new(),
        "no client outlives the match"
    );
}

#[test]
fn seats_rotate_from_game_to_game_and_warnings_do_not_forfeit() {
    let (code, report, stderr) = play(
        &["evo-correct", "evo-pretty-crlf", "evo-connects-twice"],
        &["--games", "3"],
        &[],
    );
    // evo-connects-twice's second connection is a warning: no forfeit.
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    let names = |order: [&str; 3]| -> Vec<(String, String)> {
        order
            .iter()
            .enumerate()
            .map(|(i, b)| (b.to_string(), format!("seat {}", i + 1)))
            .collect()
    };
    let (a, b, c) = ("evo-correct", "evo-pretty-crlf", "evo-connects-twice");
    let games = report["games"].as_array().unwrap();
    assert_eq!(seated(&games[0]), names([a, b, c]));
    assert_eq!(seated(&games[1]), names([b, c, a]));
    assert_eq!(seated(&games[2]), names([c, a, b]));
    for game in games {
        assert_scored_by_seat(game, 3);
    }
    let twice = &report["bots"][2];
    assert_eq!(twice["bot"], c);
    assert_eq!(twice["verdict"], "passed");
    assert_eq!(twice["warnings"], 3, "{twice:#}");
    // Every game counts once for every client.
    let points: f64 = report["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            assert_eq!(b["games"], 3, "{b:#}");
            b["points"].as_f64().unwrap()
        })
        .sum();
    assert!(points <= 3.0, "{points}");
}

#[test]
fn a_table_evolution_cannot_seat_is_a_usage_error() {
    let correct = bot("evo-correct");
    for (clients, extra, says) in [
        (3, ["--players", "2"], "between 3 and 8"),
        (4, ["--players", "3"], "fewer players than the 4 bots"),
        (3, ["--seat", "2"], "means nothing in a match"),
    ] {
        let mut args = vec!["match", "--game", "evolution"];
        args.extend(std::iter::repeat_n(correct.as_str(), clients));
        args.extend_from_slice(&extra);
        let (code, _, stderr) = protocheck_json(&args, &[]);
        assert_eq!(code, 2, "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    }
    let (code, _, stderr) = protocheck_json(&["match", "--game", "evolution", &correct], &[]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn the_html_page_steps_through_the_game_with_every_clients_lines() {
    let paths: Vec<String> = ["evo-correct", "evo-tagged-growth", "evo-pretty-crlf"]
        .iter()
        .map(|b| bot(b))
        .collect();
    let out = assert_cmd::Command::cargo_bin("protocheck")
        .unwrap()
        .args(["match", "--game", "evolution", "--format", "html"])
        .args(&paths)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    for want in [
        "game 1: evo-correct (seat 1) vs evo-tagged-growth (seat 2) vs evo-pretty-crlf (seat 3)",
        "seat 1: &quot;evo-correct&quot;",
        "seat 2: &quot;evo-tagged-growth&quot;",
        "seat 3: &quot;evo-pretty-crlf&quot;",
        "evolution.choose.tagged-growth",
        "<svg",
    ] {
        assert!(page.contains(want), "{want} not in the page");
    }
}

/// Each client has its own listener and connection: one that never
/// connects, or connects twice, gets what a single run gives it.
#[test]
fn a_client_that_never_connects_or_connects_twice_gets_the_single_runs_verdict() {
    let (code, report, stderr) = play(
        &["evo-correct", "evo-dials-ipv6", "evo-pretty-crlf"],
        &["--startup-timeout", "2s"],
        &[],
    );
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    let forfeit = &report["games"][0]["forfeit"];
    assert_eq!(forfeit["bot"], "evo-dials-ipv6", "{report:#}");
    assert_eq!(forfeit["rule"], "io.no-connect");
    let (code, report, stderr) = play(&["evo-connects-twice", "evo-correct"], &[], &[]);
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_eq!(game["outcome"], "finished", "{game:#}");
    let found: Vec<(&str, &str, &str)> = game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["bot"].as_str().unwrap(),
                f["rule"].as_str().unwrap(),
                f["severity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [(
            "evo-connects-twice",
            "evolution.signup.extra-connection",
            "warn"
        )]
    );
}

/// Two clients and a built-in player: a forfeit names no winner (the game
/// would have gone on with the built-in player), and counts only against
/// the client that broke the rule.
#[test]
fn a_forfeit_beside_a_built_in_player_names_no_winner() {
    let (code, report, stderr) = play(&["evo-tagged-growth", "evo-correct"], &[], &[]);
    assert_eq!(code, 1, "{report:#}\n{stderr}");
    let game = &report["games"][0];
    assert_eq!(game["outcome"], "forfeit", "{game:#}");
    assert_eq!(game["forfeit"]["rule"], "evolution.choose.tagged-growth");
    assert!(game["winner"].is_null(), "{game:#}");
    assert_eq!(game["seats"][0]["result"], "lost", "{game:#}");
    assert!(game["seats"][1]["result"].is_null(), "{game:#}");
    let tally: Vec<(&str, u64, u64, u64)> = report["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["bot"].as_str().unwrap(),
                b["games"].as_u64().unwrap(),
                b["losses"].as_u64().unwrap(),
                b["forfeits"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        tally,
        [("evo-tagged-growth", 1, 1, 1), ("evo-correct", 0, 0, 0)]
    );
}

/// A tournament of two clients seats a built-in player beside them: a game
/// it wins is said as such, not counted as a draw between the clients, and
/// every game of a match is a win, a draw or a built-in player's win.
#[test]
fn a_tournament_beside_a_built_in_player_tells_its_wins_from_draws() {
    let out = tempdir();
    let (a, b) = (bot("evo-correct"), bot("evo-pretty-crlf"));
    let run = assert_cmd::Command::cargo_bin("protocheck")
        .unwrap()
        .args(["tournament", "--game", "evolution", &a, &b, "--games", "4"])
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(240))
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    let human = String::from_utf8_lossy(&run.stdout);
    for m in standings["matches"].as_array().unwrap() {
        let count = |k: &str| m[k].as_u64().unwrap_or_else(|| panic!("{k} in {m}"));
        assert_eq!(
            count("first_wins") + count("second_wins") + count("draws") + count("built_in_wins"),
            4,
            "{m}"
        );
        if count("built_in_wins") > 0 {
            assert!(human.contains("won by a built-in player"), "{human}");
        }
        // Games a built-in player won are the games every client lost.
        let saved: Value = serde_json::from_str(
            &std::fs::read_to_string(out.join(m["file"].as_str().unwrap())).unwrap(),
        )
        .unwrap();
        let all_lost = saved["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| {
                g["winner"].is_null()
                    && g["seats"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|s| s["result"] == "lost")
            })
            .count() as u64;
        assert_eq!(count("built_in_wins"), all_lost, "{m}");
    }
}

/// Issue 32.2: a forfeit names the transcript line of the message that
/// broke the rule also where the client wrote it otherwise than the report
/// shows it (spaced as Python's `json.dumps` writes it), and where it was
/// cut short (a number never ended).
#[test]
fn a_forfeit_names_its_line_however_the_client_wrote_the_message() {
    for (broken, envs, rule) in [
        (
            "evo-one-based-cards",
            &[("EVO_BOT_SPACED", "1")][..],
            "evolution.choose.card-out-of-range",
        ),
        (
            "evo-undelimited-number",
            &[][..],
            "evolution.frame.undelimited-number",
        ),
    ] {
        let (code, report, stderr) = play(&["evo-correct", broken], &["--silence", "0s"], envs);
        assert_eq!(code, 1, "{report:#}\n{stderr}");
        let game = &report["games"][0];
        let forfeit = &game["forfeit"];
        assert_eq!(forfeit["rule"], rule, "{game:#}");
        let line = forfeit["line"]
            .as_u64()
            .unwrap_or_else(|| panic!("{broken}: no line: {forfeit:#}"));
        let text = game["transcript"][line as usize - 1]["text"]
            .as_str()
            .unwrap();
        let squeezed = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let shown = squeezed(text.strip_suffix(" (incomplete)").unwrap_or(text));
        assert_eq!(
            shown,
            squeezed(&format!("seat 2: {}", forfeit["actual"].as_str().unwrap())),
            "{broken}: line {line} is {text:?}"
        );
        assert_eq!(game["transcript"][line as usize - 1]["dir"], "received");
    }
}
