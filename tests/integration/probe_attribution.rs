//! Issue 26.7: a finding in a probe scenario (every built-in scenario names
//! the rules it probes in `rules:`) names the rule the transcript shows
//! broken. A bot that is too slow, crashes or plays an illegal move at the
//! probe's point gets `io.timeout`, `io.crash` or the move's rule; the
//! probe's own rule only when the probe's question got a wrong answer.
//!
//! Table-driven: each game's whole built-in suite is run against a bot that
//! fails one way wherever it is asked to play, and every failure must be
//! that way's rule, in every scenario, whatever the scenario probes.

use crate::common;
use common::*;
use serde_json::Value;

/// Each scenario of a run: its name and the rule ids it reported, each with
/// its severity.
fn per_scenario(out: &Outcome) -> Vec<(String, Vec<(String, String)>)> {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let rules = s["violations"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v: &Value| {
                    (
                        v["rule"].as_str().unwrap_or("").to_string(),
                        v["severity"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect();
            (s["name"].as_str().unwrap_or("?").to_string(), rules)
        })
        .collect()
}

/// Runs `bot` through `game`'s default built-in suite (no generated games)
/// and checks that every scenario in `must_fail` failed, and that every
/// finding of every scenario is one of `allowed`.
fn assert_only(
    game: &str,
    bot_name: &str,
    extra: &[&str],
    envs: &[(&str, &str)],
    allowed: &[&str],
    must_fail: &[&str],
) {
    let bot = bot(bot_name);
    let mut args = vec!["--game", game, "--games", "0", "--keep-going"];
    args.extend_from_slice(extra);
    args.push(&bot);
    let out = run_json(&args, envs);
    let scenarios = per_scenario(&out);
    assert!(
        !scenarios.is_empty(),
        "{bot_name}: no report\n{}",
        out.stderr
    );
    let mut wrong = Vec::new();
    for (name, rules) in &scenarios {
        for (rule, severity) in rules {
            if !allowed.contains(&rule.as_str()) {
                wrong.push(format!("{name}: {rule} [{severity}]"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{bot_name} ({game}): findings filed under another rule than {allowed:?}:\n{}\n\nall findings:\n{}",
        wrong.join("\n"),
        findings(&out.report).join("\n")
    );
    for name in must_fail {
        let failed = out.report["scenarios"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|s| s["name"] == *name && s["status"] == "failed");
        assert!(
            failed,
            "{bot_name}: scenario {name} must fail\n{}",
            findings(&out.report).join("\n")
        );
    }
}

/// Quoridor scenarios whose probe's line or state is right before a
/// `genmove`: the cases issue 26.7 names.
const QTP_PROBES_BEFORE_GENMOVE: &[&str] = &[
    "input-argument-case",
    "genmove-applied-black-forced",
    "genmove-forced-jump",
    "genmove-forced-sidestep",
    "genmove-black-first",
];

#[test]
fn quoridor_a_slow_genmove_is_io_timeout_in_every_probe_scenario() {
    // Before: `quoridor.input.argument-case` in input-argument-case.
    assert_only(
        "quoridor",
        "qtp-slow-genmove",
        &["--timeout", "1s", "--exit-grace", "500ms"],
        &[("QTP_BOT_DELAY_MS", "4000")],
        &["io.timeout"],
        QTP_PROBES_BEFORE_GENMOVE,
    );
}

#[test]
fn quoridor_a_crash_on_genmove_is_io_crash_in_every_probe_scenario() {
    // Before: `quoridor.input.argument-case` in input-argument-case.
    assert_only(
        "quoridor",
        "qtp-crash-on-genmove",
        &["--timeout", "5s", "--exit-grace", "500ms"],
        &[],
        &["io.crash"],
        QTP_PROBES_BEFORE_GENMOVE,
    );
}

#[test]
fn quoridor_an_illegal_genmove_is_the_move_rule_in_every_probe_scenario() {
    // Before: `quoridor.state.failed-unchanged` in input-argument-case (a
    // refusal of `playmove Black e8` just before), and
    // `scenario.expect.matches` first in the forced-move scenarios.
    assert_only(
        "quoridor",
        "qtp-illegal-genmove",
        &["--timeout", "5s", "--exit-grace", "500ms"],
        &[],
        &["quoridor.genmove.illegal"],
        QTP_PROBES_BEFORE_GENMOVE,
    );
}

#[test]
fn quoridor_a_wrong_answer_to_the_probe_is_still_the_probes_rule() {
    let bot = bot("qtp-uppercase-only");
    let out = run_json(
        &[
            "--game",
            "quoridor",
            "--filter",
            "input-argument-case",
            "--timeout",
            "5s",
            &bot,
        ],
        &[],
    );
    assert_eq!(
        out.rules().first().map(String::as_str),
        Some("quoridor.input.argument-case"),
        "{}",
        findings(&out.report).join("\n")
    );
}

#[test]
fn kalah_a_slow_move_after_an_extra_turn_or_a_swap_is_io_timeout() {
    // The first reply (with the start-up allowance) is in time, every later
    // one too slow. Before: `kalah.turn.missed-turn` where the late move was
    // owed after the bot's own extra turn or the opponent's swap, although
    // the bot was computing it. (`io.no-exit`: the sleeping bot reads the
    // `END` after the timeout too late.)
    for (filter, must_fail) in [
        (
            "swap",
            &["being-swapped", "being-swapped-one-legal-move"][..],
        ),
        ("extra-turn", &["own-extra-turn-chain"][..]),
    ] {
        assert_only(
            "kalah",
            "kalah-slow",
            &[
                "--all-sizes",
                "--filter",
                filter,
                "--timeout",
                "700ms",
                "--startup-timeout",
                "10s",
                "--exit-grace",
                "500ms",
            ],
            &[("KALAH_BOT_DELAY_MS", "2500")],
            &["io.timeout", "io.no-exit"],
            must_fail,
        );
    }
}

#[test]
fn dominion_sexp_a_bot_busy_on_a_robustness_probe_fails_io_timeout() {
    // hostile-deaf sleeps and never reads: it is proved busy, not blocked
    // reading the probe's notification. Before: the warning
    // `dominion-sexp.robust.*` "under io.timeout", and the scenario passed.
    assert_only(
        "dominion-sexp",
        "hostile-deaf",
        &[
            "--filter",
            "robust",
            "--timeout",
            "700ms",
            "--startup-timeout",
            "700ms",
            "--exit-grace",
            "300ms",
        ],
        &[],
        // (`io.no-exit`: it ignores its input's end, a warning here.)
        &["io.timeout", "io.no-exit"],
        &["robust-extra-whitespace", "robust-reference-names"],
    );
}

#[test]
fn dominion_sexp_a_bot_blocked_on_a_robustness_probe_keeps_the_probes_warning() {
    // hostile-silent reads everything and never answers: blocked reading its
    // input, it waits for something else, the probe's question unanswered.
    let bot = bot("hostile-silent");
    let out = run_json(
        &[
            "--game",
            "dominion-sexp",
            "--filter",
            "robust-reference-names",
            "--timeout",
            "2s",
            &bot,
        ],
        &[],
    );
    assert_eq!(
        out.rules(),
        ["dominion-sexp.robust.reference-names"],
        "{}",
        findings(&out.report).join("\n")
    );
}

#[test]
fn dominion_sexp_robustness_probes_keep_only_the_failures_of_reading_them() {
    // Each broken player in both robustness scenarios (every notification
    // padded, or reference-style names): a play it wrote, and whatever it
    // does once it has answered a probed notification with a legal play,
    // is its own rule. Before: every one was the warning `robust.*`, and
    // the scenario passed.
    let table: &[(&str, &[&str])] = &[
        ("dsx-second-buy", &["dominion-sexp.buy.no-buys"]),
        (
            "dsx-act-treasures",
            &["dominion-sexp.grammar.unknown-action"],
        ),
        ("dsx-exits-after-turn", &["io.crash"]),
        ("dsx-answers-moved", &["io.unexpected-output"]),
        // The probes' own failures: blocked on a notification it cannot read.
        (
            "dsx-letters-only-names",
            &["dominion-sexp.robust.reference-names"],
        ),
        (
            "dsx-line-reader",
            &["dominion-sexp.robust.extra-whitespace"],
        ),
    ];
    for (bot_name, want) in table {
        let bot = bot(bot_name);
        let out = run_json(
            &[
                "--game",
                "dominion-sexp",
                "--filter",
                "robust",
                "--timeout",
                "5s",
                "--exit-grace",
                "500ms",
                &bot,
            ],
            &[],
        );
        let mut got = out.rules();
        got.sort();
        got.dedup();
        assert_eq!(
            &got,
            want,
            "{bot_name}\n{}",
            findings(&out.report).join("\n")
        );
    }
}
