//! protocheck against the sample Kalah bots: the correct one passes; each
//! broken one is named by the rule it breaks, with the right exit status.

use crate::common;
use common::*;

fn run(bot_name: &str, fixture_name: &str, extra: &[&str], envs: &[(&str, &str)]) -> Outcome {
    let bot = bot(bot_name);
    let scenario = fixture(&format!("kalah/{fixture_name}.yaml"));
    let mut args = vec![
        "--game",
        "kalah",
        "--scenarios",
        &scenario,
        "--exit-grace",
        "500ms",
    ];
    args.extend_from_slice(extra);
    args.push(&bot);
    run_json(&args, envs)
}

/// A failure: exit 1 and the rule among the findings.
fn assert_fails(out: &Outcome, rule: &str) {
    assert_eq!(
        out.code,
        1,
        "expected exit 1; rules {:?}; stderr {}",
        out.rules(),
        out.stderr
    );
    assert!(
        out.has_rule(rule),
        "expected {rule}, got {:?}\n{}",
        out.rules(),
        out.messages()
    );
}

/// A warning only: exit 0, the rule reported, and `--strict` makes it fail.
fn assert_warns(bot_name: &str, fixture_name: &str, rule: &str) {
    let out = run(bot_name, fixture_name, &[], &[]);
    assert_eq!(
        out.code,
        0,
        "a warning alone must not fail the run: {:?}",
        out.rules()
    );
    assert!(out.has_rule(rule), "expected {rule}, got {:?}", out.rules());
    let strict = run(bot_name, fixture_name, &["--strict"], &[]);
    assert_fails(&strict, rule);
}

/// The scenarios of a JSON report with this status, by name.
fn named(out: &Outcome, status: &str) -> Vec<String> {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["status"] == status)
        .map(|s| s["name"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn correct_bot_passes_builtin_suite_and_generated_games() {
    let bot = bot("kalah-correct");
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--games",
            "8",
            "--seed",
            "1",
            "--strict",
            "--all-sizes",
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    assert!(
        out.statuses().len() >= 45,
        "suite plus 8 games: {}",
        out.statuses().len()
    );
    assert!(out.statuses().iter().all(|s| s == "passed"));
}

/// kalah.md decision 14: the default run is Kalah(7,7) only; every
/// scenario on another board is listed as skipped, with the reason and the
/// option that runs it, and does not count against the bot.
#[test]
fn default_run_is_seven_by_seven_and_lists_the_rest_as_skipped() {
    let bot = bot("kalah-correct");
    let out = run_json(
        &["--game", "kalah", "--games", "2", "--seed", "1", &bot],
        &[],
    );
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    let skipped = named(&out, "skipped");
    assert_eq!(skipped.len(), 18, "{skipped:?}");
    for name in [
        "south-opening-in-store",
        "opponent-lap-capture",
        "opponent-double-lap",
        "size-6-4-south",
        "size-12-north",
    ] {
        assert!(skipped.iter().any(|s| s == name), "{name} not skipped");
    }
    let passed = named(&out, "passed");
    assert_eq!(passed.len(), 25 + 2, "{passed:?}");
    for name in [
        "7x7-opponent-extra-turn-chain-bot-south",
        "7x7-opponent-extra-turn-chain-bot-north",
        "7x7-north-swap-turn-passes",
        "7x7-opponent-laps",
        "7x7-opponent-captures",
        "7x7-end-opponent-empties-row",
    ] {
        assert!(
            passed.iter().any(|s| s == name),
            "{name} not in the default run"
        );
    }
    assert!(
        passed
            .iter()
            .any(|s| s == "generated-001-south-random-swaps")
    );
    for s in out.report["scenarios"].as_array().unwrap() {
        if s["status"] == "skipped" {
            let why = s["skip_reason"].as_str().unwrap_or("");
            assert!(
                why.contains("a real match is always Kalah(7,7)") && why.contains("--all-sizes"),
                "{}: {why}",
                s["name"]
            );
        } else {
            assert!(s.get("skip_reason").is_none(), "{}", s["name"]);
        }
    }
    assert_eq!(out.report["totals"]["skipped"], 18);
    assert_eq!(out.report["totals"]["failed"], 0);
}

#[test]
fn correct_bot_passes_with_swaps_and_other_sizes() {
    for (swap, seed) in [("always", "1"), ("never", "2")] {
        for fixture_name in ["south-game", "north-game", "swapped-game", "abort"] {
            let out = run(
                "kalah-correct",
                fixture_name,
                &["--strict"],
                &[("KALAH_BOT_SWAP", swap), ("KALAH_BOT_SEED", seed)],
            );
            assert_eq!(
                out.code,
                0,
                "{fixture_name} swap={swap}: {:?}\n{}",
                out.rules(),
                out.messages()
            );
        }
    }
    let bot = bot("kalah-correct");
    for (holes, seeds) in [("6", "4"), ("10", "3"), ("1", "1")] {
        let out = run_json(
            &[
                "--game",
                "kalah",
                "--filter",
                "generated",
                "--games",
                "4",
                "--seed",
                "5",
                "--holes",
                holes,
                "--seeds",
                seeds,
                "--strict",
                &bot,
            ],
            &[],
        );
        assert_eq!(
            out.code,
            0,
            "Kalah({holes},{seeds}): {:?}\n{}",
            out.rules(),
            out.messages()
        );
    }
}

#[test]
fn zero_based_holes() {
    assert_fails(
        &run("kalah-zero-based", "south-game", &[], &[]),
        "kalah.move.hole-range",
    );
}

#[test]
fn ignoring_the_swap_names_an_empty_hole_with_a_hint() {
    let out = run("kalah-ignores-swap", "swapped-game", &[], &[]);
    assert_fails(&out, "kalah.move.empty-hole");
    assert!(
        out.messages().contains("did the bot miss a swap?"),
        "{}",
        out.messages()
    );
}

#[test]
fn opening_move_taken_as_extra_turn() {
    assert_fails(
        &run("kalah-opening-extra-turn", "south-game", &[], &[]),
        "kalah.turn.no-extra-turn",
    );
}

#[test]
fn swap_as_south_and_late_swap() {
    assert_fails(
        &run("kalah-swap-as-south", "south-game", &[], &[]),
        "kalah.swap.not-allowed",
    );
    assert_fails(
        &run(
            "kalah-late-swap",
            "north-game",
            &[],
            &[("KALAH_BOT_SWAP", "never")],
        ),
        "kalah.swap.not-allowed",
    );
}

#[test]
fn crlf_line_ends() {
    assert_fails(
        &run("kalah-crlf", "south-game", &[], &[]),
        "kalah.framing.crlf",
    );
}

#[test]
fn banner_on_stdout() {
    assert_fails(
        &run("kalah-banner", "south-game", &[], &[]),
        "io.unexpected-output",
    );
}

#[test]
fn unflushed_and_slow_replies_time_out() {
    assert_fails(
        &run("kalah-no-flush", "south-game", &["--timeout", "1s"], &[]),
        "io.timeout",
    );
    assert_fails(
        &run(
            "kalah-slow",
            "south-game",
            &["--timeout", "500ms"],
            &[("KALAH_BOT_DELAY_MS", "1500")],
        ),
        "io.timeout",
    );
}

#[test]
fn output_after_end_lingering_and_exit_status_are_warnings() {
    assert_warns(
        "kalah-move-after-end",
        "abort",
        "kalah.end.output-after-end",
    );
    assert_warns("kalah-lingers", "south-game", "io.no-exit");
    assert_warns("kalah-exit-nonzero", "south-game", "kalah.end.exit-status");
    assert_warns("kalah-plus-sign", "south-game", "kalah.move.number-format");
}

/// The built-in suite (and two generated games) with `extra` options.
fn suite_run(bot_name: &str, extra: &[&str]) -> Outcome {
    let bot = bot(bot_name);
    let mut args = vec![
        "--game",
        "kalah",
        "--games",
        "2",
        "--seed",
        "4",
        "--exit-grace",
        "500ms",
    ];
    args.extend_from_slice(extra);
    args.push(&bot);
    run_json(&args, &[])
}

/// The rules reported for one scenario of a JSON report.
fn rules_of(out: &Outcome, scenario: &str) -> Vec<String> {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["name"] == scenario)
        .flat_map(|s| s["violations"].as_array().cloned().unwrap_or_default())
        .map(|v| v["rule"].as_str().unwrap_or("").to_string())
        .collect()
}

/// A bot that hard-codes 7 holes, like the reference agent MKRefAgent.jar,
/// is conformant for every real match: the default run must not fail it
/// (it used to, on the one-hole and 6/10/12-hole boards). Asked for other
/// sizes, protocheck must still catch it.
#[test]
fn hard_coded_seven_holes_passes_the_default_run_and_fails_other_sizes() {
    let out = suite_run("kalah-fixed-seven", &["--strict"]);
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    assert_eq!(out.report["totals"]["failed"], 0);
    assert_eq!(out.report["totals"]["skipped"], 18);

    let out = suite_run("kalah-fixed-seven", &["--all-sizes"]);
    assert_eq!(out.code, 1, "{:?}", out.rules());
    assert!(
        rules_of(&out, "size-6-4-south").contains(&"kalah.move.empty-hole".to_string()),
        "{:?}",
        rules_of(&out, "size-6-4-south")
    );
    assert!(!rules_of(&out, "size-10-south").is_empty());

    let out = run("kalah-fixed-seven", "south-game", &[], &[]);
    assert_eq!(out.code, 0, "at n = 7 it is correct: {:?}", out.rules());
    let out = run("kalah-fixed-seven", "south-game", &["--holes", "6"], &[]);
    assert_fails(&out, "kalah.move.empty-hole");
}

/// A bot that assumes 7 seeds per hole, like Group2Agent.jar: conformant in
/// the default run (with --strict: its own board simulation agrees with
/// every state protocheck sends), and caught as soon as the seed count
/// differs, with `--all-sizes` or `--seeds`.
#[test]
fn seven_seeds_per_hole_passes_the_default_run_and_fails_other_seed_counts() {
    let out = suite_run("kalah-seven-seeds", &["--strict"]);
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    assert_eq!(out.report["totals"]["failed"], 0);

    let out = suite_run("kalah-seven-seeds", &["--all-sizes", "--filter", "lap"]);
    assert_eq!(out.code, 1, "{:?}", out.rules());
    for scenario in ["opponent-lap-capture", "opponent-double-lap"] {
        assert_eq!(rules_of(&out, scenario), ["io.crash"], "{scenario}");
    }
    assert!(
        out.report["scenarios"][0]["stderr_tail"]
            .as_str()
            .unwrap_or("")
            .contains("board mismatch"),
        "{}",
        out.report["scenarios"][0]
    );

    let out = run("kalah-seven-seeds", "north-game", &["--seeds", "4"], &[]);
    assert_fails(&out, "io.crash");
}

#[test]
fn chatty_stderr_overflows_the_reference_pipe() {
    assert_fails(
        &run("kalah-chatty-stderr", "south-game", &[], &[]),
        "kalah.process.stderr-overflow",
    );
}

#[test]
fn exiting_before_the_end_is_a_crash() {
    assert_fails(
        &run("kalah-exits-early", "south-game", &[], &[]),
        "io.crash",
    );
}

/// The steered 7×7 scenarios (38-43) of the default run catch the broken
/// bots that the one-hole scenarios caught before decision 14 moved those
/// behind `--all-sizes`, by the same rule ids: the opening taken as an
/// extra turn, SWAP as South, a late SWAP (also on North's extra turn),
/// exiting before the end, and a move after the end (a warning).
#[test]
fn the_seven_by_seven_scenarios_catch_what_the_one_hole_boards_caught() {
    let filter = ["--filter", "7x7-*", "--strict"];
    let cases = [
        (
            "kalah-opening-extra-turn",
            "kalah.turn.no-extra-turn",
            "7x7-opponent-extra-turn-chain-bot-south",
        ),
        (
            "kalah-swap-as-south",
            "kalah.swap.not-allowed",
            "7x7-opponent-captures",
        ),
        (
            "kalah-late-swap",
            "kalah.swap.not-allowed",
            "7x7-north-swap-turn-passes",
        ),
        (
            "kalah-exits-early",
            "io.crash",
            "7x7-end-opponent-empties-row",
        ),
        (
            "kalah-move-after-end",
            "kalah.end.output-after-end",
            "7x7-end-opponent-empties-row",
        ),
    ];
    for (bot_name, rule, scenario) in cases {
        let bot = bot(bot_name);
        let mut args = vec!["--game", "kalah", "--exit-grace", "500ms"];
        args.extend_from_slice(&filter);
        args.push(&bot);
        let out = run_json(&args, &[]);
        assert_eq!(out.code, 1, "{bot_name}: {:?}", out.rules());
        assert_eq!(out.report["totals"]["skipped"], 0, "{bot_name}");
        assert!(
            rules_of(&out, scenario).contains(&rule.to_string()),
            "{bot_name}: {scenario} reported {:?}",
            rules_of(&out, scenario)
        );
    }
    // The correct bot passes them, strictly, as do the bots that hard-code
    // the real board.
    for bot_name in ["kalah-correct", "kalah-fixed-seven", "kalah-seven-seeds"] {
        let bot = bot(bot_name);
        let mut args = vec!["--game", "kalah"];
        args.extend_from_slice(&filter);
        args.push(&bot);
        let out = run_json(&args, &[]);
        assert_eq!(
            out.code,
            0,
            "{bot_name}: {:?}\n{}",
            out.rules(),
            out.messages()
        );
        assert_eq!(out.statuses().len(), 6, "{bot_name}");
    }
}

/// A failing reply collected by an `opponent:` (or `wait:`) step is the bot's
/// failure (exit 1), never a scenario error (exit 2) because protocheck then
/// tried to move while the bot was still to move.
#[test]
fn a_failing_reply_before_a_scripted_opponent_move_is_a_failure() {
    let out = run("kalah-crlf", "opponent-after-reply", &[], &[]);
    assert_eq!(out.code, 1, "{:?}\n{}", out.rules(), out.stderr);
    assert_fails(&out, "kalah.framing.crlf");
    assert_eq!(out.report["totals"]["errors"], 0);
    let out = run("kalah-correct", "opponent-after-reply", &[], &[]);
    assert_eq!(out.code, 0, "{:?}", out.rules());
}

/// (rule, severity, message) of each finding of one scenario.
fn findings_of(out: &Outcome, scenario: &str) -> Vec<(String, String, String)> {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["name"] == scenario)
        .flat_map(|s| s["violations"].as_array().cloned().unwrap_or_default())
        .map(|v| {
            let field = |k: &str| v[k].as_str().unwrap_or("").to_string();
            (field("rule"), field("severity"), field("message"))
        })
        .collect()
}

/// A line the bot prints once protocheck has closed its input is not a
/// move: it used to be judged as one (`kalah.turn.no-extra-turn` after the
/// bot's opening, `kalah.turn.move-after-swap` after its SWAP). It is what
/// the bot does at end of input: the end-of-input rule, a warning.
#[test]
fn output_after_protocheck_closed_the_input_is_not_a_move() {
    for swap in ["never", "always"] {
        let bot = bot("kalah-eof-message");
        let args = [
            "--game",
            "kalah",
            "--filter",
            "eof-*",
            "--exit-grace",
            "500ms",
            &bot,
        ];
        let out = run_json(&args, &[("KALAH_BOT_SWAP", swap)]);
        assert_eq!(out.code, 0, "{swap}: {:?}\n{}", out.rules(), out.messages());
        for scenario in ["eof-after-opening", "eof-mid-game"] {
            let found = findings_of(&out, scenario);
            assert_eq!(found.len(), 1, "{swap} {scenario}: {found:?}");
            let (rule, severity, message) = &found[0];
            assert_eq!(rule, "kalah.process.eof", "{swap} {scenario}: {message}");
            assert_eq!(severity, "warn");
            assert!(
                message.starts_with(
                    "the bot wrote `error: unexpected end of input` after protocheck closed its input without END: not a move"
                ),
                "{message}"
            );
        }
        let mut strict_args = args.to_vec();
        strict_args.insert(0, "--strict");
        let strict = run_json(&strict_args, &[("KALAH_BOT_SWAP", swap)]);
        assert_eq!(strict.code, 1, "{swap} --strict: {:?}", strict.rules());
    }
}
