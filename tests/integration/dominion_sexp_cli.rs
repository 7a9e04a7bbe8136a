//! protocheck --game dominion-sexp against the sample players (bots/
//! dominion-sexp/): the correct one passes the built-in suite and generated
//! games in every seat; each broken one fails with exactly the rule id its
//! file documents (warnings only under `--strict`); a failing generated game
//! saved with `--save-failures` replays to the same verdict; a scenario that
//! scripts an impossible deal is a scenario error at its file:line:col.

use crate::common;
use assert_cmd::Command;
use common::*;
use std::collections::BTreeSet;

fn suite(bot_name: &str, extra: &[&str]) -> Outcome {
    let bot = bot(bot_name);
    let mut args = vec!["--game", "dominion-sexp", "--exit-grace", "500ms"];
    args.extend_from_slice(extra);
    args.push(&bot);
    run_json(&args, &[])
}

/// Rule ids of the findings with this severity.
fn with_severity(out: &Outcome, severity: &str) -> BTreeSet<String> {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["violations"].as_array().cloned().unwrap_or_default())
        .filter(|v| v["severity"] == severity)
        .map(|v| v["rule"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn the_correct_player_passes_the_suite_and_generated_games_in_every_seat() {
    let out = suite("dsx-correct", &["--games", "9", "--seed", "3"]);
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    assert!(out.rules().is_empty(), "{:?}", out.rules());
    let statuses = out.statuses();
    assert_eq!(statuses.len(), 37 + 9);
    assert!(statuses.iter().all(|s| s == "passed"), "{statuses:?}");
    // The other conforming wire layouts pass too.
    for framing in ["newline", "split", "padded"] {
        let bot = bot("dsx-correct");
        let out = run_json(
            &[
                "--game",
                "dominion-sexp",
                "--games",
                "3",
                "--seed",
                "4",
                "--filter",
                "generated-*",
                &bot,
                "--",
                "-framing",
                framing,
            ],
            &[],
        );
        assert_eq!(out.code, 0, "{framing}: {:?}", out.rules());
        assert!(out.rules().is_empty(), "{framing}: {:?}", out.rules());
    }
}

/// Broken players whose one flaw is a failure: the whole default run finds
/// that rule and no other failure.
const FAILING: &[(&str, &str)] = &[
    ("dsx-act-treasures", "dominion-sexp.grammar.unknown-action"),
    ("dsx-add-after-buy", "dominion-sexp.add.no-buys"),
    ("dsx-all-adds-at-once", "io.unexpected-output"),
    ("dsx-answers-moved", "io.unexpected-output"),
    ("dsx-bare-clean", "dominion-sexp.clean.card-required"),
    ("dsx-capitalised", "dominion-sexp.grammar.case"),
    ("dsx-exits-after-turn", "io.crash"),
    ("dsx-extra-add", "dominion-sexp.add.not-in-hand"),
    ("dsx-hash-comment", "dominion-sexp.frame.syntax"),
    ("dsx-mine-after-add", "dominion-sexp.mine.no-actions"),
    ("dsx-mine-any-card", "dominion-sexp.grammar.not-treasure"),
    ("dsx-mine-from-supply", "dominion-sexp.mine.not-in-hand"),
    ("dsx-mine-to-gold", "dominion-sexp.mine.too-expensive"),
    ("dsx-mine-unchecked", "dominion-sexp.mine.trash-not-in-hand"),
    ("dsx-no-flush", "io.timeout"),
    ("dsx-quoted-string", "dominion-sexp.grammar.not-a-play"),
    ("dsx-second-buy", "dominion-sexp.buy.no-buys"),
    ("dsx-show-hand", "dominion-sexp.grammar.arity"),
    ("dsx-stale-clean", "dominion-sexp.clean.top-not-in-hand"),
    ("dsx-unplayed-coins", "dominion-sexp.buy.too-expensive"),
    ("dsx-v2-buys", "dominion-sexp.grammar.unknown-card"),
];

/// Broken players whose flaw is only a warning: exit 0, the rule reported,
/// and `--strict` makes the run fail on it.
const WARNING: &[(&str, &str)] = &[
    ("dsx-brackets", "dominion-sexp.frame.nonstandard-syntax"),
    ("dsx-ignores-eof", "io.no-exit"),
    (
        "dsx-letters-only-names",
        "dominion-sexp.robust.reference-names",
    ),
    ("dsx-line-reader", "dominion-sexp.robust.extra-whitespace"),
];

#[test]
fn each_broken_player_fails_with_exactly_its_documented_rule() {
    let mut wrong = Vec::new();
    for &(bot_name, rule) in FAILING {
        let out = suite(bot_name, &["--games", "3", "--seed", "3"]);
        let fails = with_severity(&out, "fail");
        let expected: BTreeSet<String> = [rule.to_string()].into();
        if out.code != 1 || fails != expected {
            wrong.push(format!(
                "{bot_name}: exit {}, failures {fails:?}, expected {rule}\n{}",
                out.code,
                out.messages()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The name of the first scenario of `out` that reported `rule`.
fn first_scenario_with(out: &Outcome, rule: &str) -> String {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| {
            s["violations"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|v| v["rule"] == rule)
        })
        .and_then(|s| s["name"].as_str())
        .unwrap_or_else(|| panic!("no scenario reported {rule}"))
        .to_string()
}

#[test]
fn each_warning_player_passes_unless_strict() {
    for &(bot_name, rule) in WARNING {
        let out = suite(bot_name, &[]);
        assert_eq!(out.code, 0, "{bot_name}: {:?}", out.rules());
        assert!(
            with_severity(&out, "fail").is_empty(),
            "{bot_name}: {:?}",
            out.rules()
        );
        assert_eq!(
            with_severity(&out, "warn"),
            [rule.to_string()].into(),
            "{bot_name}"
        );
        // `--strict` on the first scenario that showed the warning: the
        // whole run above proved no other scenario has a finding.
        let shown = first_scenario_with(&out, rule);
        let strict = suite(bot_name, &["--filter", &shown, "--strict"]);
        assert_eq!(strict.code, 1, "{bot_name} under --strict ({shown})");
        assert_eq!(
            with_severity(&strict, "fail"),
            [rule.to_string()].into(),
            "{bot_name} under --strict"
        );
    }
}

#[test]
fn reference_players_pass_the_default_run_and_generated_games() {
    // Also in tests/integration/reference_dominion_sexp.rs (the players' branch); here
    // only a quick check that the dealer plays whole games with them.
    let Ok(dir) = std::env::var("PROTOCHECK_REFERENCE_BOTS") else {
        eprintln!(
            "reference_players_pass_the_default_run_and_generated_games: did not run: set PROTOCHECK_REFERENCE_BOTS to the folder holding dominion-sexp/player-v1 (Flatt's players, built with raco exe)"
        );
        return;
    };
    for player in ["player-v1", "player-v2-random", "player-v3-soldier"] {
        let path = format!("{dir}/dominion-sexp/{player}");
        if !std::path::Path::new(&path).exists() {
            eprintln!("{player}: not found at {path}; skipped");
            continue;
        }
        // The whole default run for player-v1; generated games (every seat
        // at 2, 3 and 4 players) for all three. Racket's runtime cannot be
        // proved idle, so every pause runs its length: a few minutes in all.
        let mut args = vec![
            "--game",
            "dominion-sexp",
            "--jobs",
            "2",
            "--games",
            "9",
            "--seed",
            "5",
        ];
        if player != "player-v1" {
            args.extend(["--filter", "generated-*"]);
        }
        args.push(&path);
        let out = run_json(&args, &[]);
        assert_eq!(
            out.code,
            0,
            "{player}: {:?}\n{}",
            out.rules(),
            out.messages()
        );
        assert!(with_severity(&out, "fail").is_empty(), "{player}");
    }
}

#[test]
fn failing_generated_games_are_saved_and_replay_to_the_same_verdict() {
    let dir = tempdir();
    let bot = bot("dsx-stale-clean");
    // Nine games: every seat at 2, 3 and 4 players; the flaw shows at a
    // point of the game that depends on the deal and the built-in players.
    let out = run_json(
        &[
            "--game",
            "dominion-sexp",
            "--filter",
            "generated-*",
            "--games",
            "9",
            "--seed",
            "21",
            "--save-failures",
            dir.to_str().unwrap(),
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{:?}", out.rules());
    assert!(assert_saved_failures_replay("dominion-sexp", &bot, &out) >= 1);
}

#[test]
fn an_impossible_scripted_deal_is_a_scenario_error_at_its_step() {
    let dir = tempdir();
    let file = dir.join("impossible.yaml");
    // One copper too many: the cards of a 2-player game do not add up.
    let supply = format!(
        "{} {} {} {} {} {} {}",
        "copper ".repeat(47).trim(),
        "silver ".repeat(40).trim(),
        "gold ".repeat(30).trim(),
        "estate ".repeat(8).trim(),
        "duchy ".repeat(8).trim(),
        "province ".repeat(8).trim(),
        "mine ".repeat(10).trim()
    );
    let state = format!(
        "(move ((players alpha bravo) (supply {supply}) (trash) (actions 1) (buys 1) (coins 0) (deck copper copper copper estate estate) (hand copper copper copper copper estate) (plays) (discards)))"
    );
    std::fs::write(
        &file,
        format!(
            "name: impossible\ngame: dominion-sexp\nsteps:\n  - expect: silence\n  - send: \"{state}\"\n  - expect: legal-move\n"
        ),
    )
    .unwrap();
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args(["lint", "--game", "dominion-sexp", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("impossible.yaml:5:5"), "{text}");
    assert!(text.contains("do not add up"), "{text}");
    // The built-in suite lints clean.
    Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args([
            "lint",
            "--game",
            "dominion-sexp",
            &format!("{}/scenarios/dominion-sexp", env!("CARGO_MANIFEST_DIR")),
        ])
        .assert()
        .success();
}

#[test]
fn options_that_mean_nothing_here_are_usage_errors() {
    let bot = bot("dsx-correct");
    let dir = tempdir();
    let file = dir.join("whole-game.yaml");
    // No options: the command line fills them in.
    std::fs::write(
        &file,
        "name: whole-game\ngame: dominion-sexp\nsteps:\n  - play: to-end\n",
    )
    .unwrap();
    let file = file.to_str().unwrap().to_string();
    for (args, why) in [
        (vec!["--players", "5"], "players must be 2, 3 or 4"),
        (
            vec!["--players", "3", "--seat", "4"],
            "seat must be between 1 and 3",
        ),
        (vec!["--holes", "6"], "means nothing in dominion-sexp"),
    ] {
        let mut all = vec!["--game", "dominion-sexp", "--scenarios", &file];
        all.extend(args);
        all.push(&bot);
        let out = run_json(&all, &[]);
        assert_eq!(out.code, 2, "{all:?}");
        assert!(
            out.report.to_string().contains(why) || out.stderr.contains(why),
            "{all:?}: {} {}",
            out.report,
            out.stderr
        );
    }
    // The same file at 3 players, the bot in seat 2, passes.
    let out = run_json(
        &[
            "--game",
            "dominion-sexp",
            "--scenarios",
            &file,
            "--players",
            "3",
            "--seat",
            "2",
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 0, "{:?}", out.rules());
}

#[test]
fn a_failing_report_is_pinned() {
    let bot = bot("dsx-capitalised");
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args([
            "--game",
            "dominion-sexp",
            "--filter",
            "mine-silver-to-gold",
            "--jobs",
            "1",
            "--color",
            "never",
            &bot,
        ])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = human_report_for_snapshot(&out.stdout, &bot);
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("dominion-sexp-fail-human", text);
    });
}

/// A robustness probe's rule names the cause only when the bot's trouble
/// came from the probe: a player that never flushes did answer the probe's
/// notification (its play arrives when it exits), so each robustness
/// scenario reports the real `io.timeout` failure, not the probe's warning.
#[test]
fn an_unflushed_player_fails_the_robustness_scenarios_with_the_real_timeout() {
    let out = suite("dsx-no-flush", &["--filter", "robust-*"]);
    assert_eq!(out.code, 1, "{:?}\n{}", out.rules(), out.messages());
    for scenario in ["robust-reference-names", "robust-extra-whitespace"] {
        let s = out.report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == scenario)
            .unwrap_or_else(|| panic!("{scenario} ran"));
        assert_eq!(s["status"], "failed", "{scenario}");
        let found: Vec<(&str, &str)> = s["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| (v["rule"].as_str().unwrap(), v["severity"].as_str().unwrap()))
            .collect();
        assert_eq!(found, [("io.timeout", "fail")], "{scenario}");
        // The justifying transcript: the play arrived after protocheck
        // closed the bot's input.
        let lines: Vec<(&str, &str)> = s["transcript"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l["dir"].as_str().unwrap(), l["text"].as_str().unwrap()))
            .collect();
        let closed = lines
            .iter()
            .position(|(dir, text)| *dir == "note" && text.contains("closed the bot's input"))
            .unwrap_or_else(|| panic!("{scenario}: no close in {lines:?}"));
        assert!(
            lines[closed..]
                .iter()
                .any(|(dir, text)| *dir == "received" && text.starts_with('(')),
            "{scenario}: no play after the close in {lines:?}"
        );
    }
}
