//! A bot that never flushes its output is told so, in every game: its reply
//! reaches protocheck only as the session ends (protocheck closes its input
//! or sends the game's end, and the bot's exit writes its buffer out), and
//! the bot was not computing meanwhile. Kalah's case is in `pace.rs`
//! (`unflushed_output_is_one_finding_with_its_diagnosis`). Only verdicts
//! and messages are compared, no timings.

use crate::common;
use common::*;

/// The one `io.timeout` a never-flushing bot gets in a run, with its
/// message.
fn the_timeout(out: &Outcome) -> String {
    assert_eq!(out.code, 1, "{:?}\n{}", out.rules(), out.messages());
    let rules = out.rules();
    assert!(
        !rules.is_empty() && rules.iter().all(|r| r == "io.timeout"),
        "{rules:?}\n{}",
        out.messages()
    );
    out.messages()
}

fn assert_named_unflushed(out: &Outcome, what: &str) {
    let messages = the_timeout(out);
    if cfg!(target_os = "linux") {
        assert!(
            messages.contains(&format!("{what} is not flushed after each")),
            "{messages}"
        );
        assert!(
            !messages.contains("too slow") && !messages.contains("busy"),
            "{messages}"
        );
    }
}

#[test]
fn an_unflushed_qtp_engine_is_told_to_flush() {
    // Blocked reading its input with the response due; protocheck closes
    // its input and the response arrives as the engine exits.
    let bot = bot("qtp-no-flush");
    let out = run_json(
        &[
            "--game",
            "quoridor",
            "--filter",
            "name",
            "--timeout",
            "2s",
            &bot,
        ],
        &[],
    );
    assert_named_unflushed(&out, "stdout");
    let scenario = &out.report["scenarios"][0];
    let transcript: Vec<String> = scenario["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| format!("{} {}", l["dir"], l["text"]))
        .collect();
    assert!(
        transcript.iter().any(|l| l.contains("= qtp-no-flush")),
        "the response that was kept in the buffer is in the transcript: {transcript:#?}"
    );
}

#[test]
fn an_unflushed_evolution_client_is_told_to_flush() {
    let bot = bot("evo-no-flush");
    let out = run_json(
        &[
            "--game",
            "evolution",
            "--filter",
            "whole-game-3p-seat1",
            "--timeout",
            "1s",
            "--startup-timeout",
            "1s",
            &bot,
        ],
        &[],
    );
    assert_named_unflushed(&out, "the connection's output");
}

fn dominion(game: &str, bot_name: &str) -> Outcome {
    let bot = bot(bot_name);
    run_json(
        &[
            "--game",
            game,
            "--filter",
            "generated-*",
            "--games",
            "1",
            "--seed",
            "3",
            "--timeout",
            "1s",
            "--startup-timeout",
            "1s",
            &bot,
        ],
        &[],
    )
}

#[test]
fn an_unflushed_dominion_player_is_told_to_flush() {
    assert_named_unflushed(&dominion("dominion-text", "dtext-no-flush"), "stdout");
    assert_named_unflushed(&dominion("dominion-sexp", "dsx-no-flush"), "stdout");
}

/// Issue 32: a player asleep in `poll()` with a timeout (GHC's I/O manager)
/// is never proved blocked reading its input, and used no CPU: its play,
/// arriving as protocheck closes its input, is unflushed output, not a bot
/// that "was busy".
#[test]
fn a_player_asleep_in_poll_that_never_flushes_is_told_to_flush() {
    let out = dominion("dominion-sexp", "dsx-poll-no-flush");
    assert_named_unflushed(&out, "stdout");
    if cfg!(target_os = "linux") {
        assert!(
            out.messages()
                .contains("ms of CPU time while the reply was due"),
            "{}",
            out.messages()
        );
    }
}

/// Issue 32: a line reader that answers a notification spread over lines
/// only with parse errors, unflushed, which come at end of input, did not
/// answer the robustness probe: the probe's documented warning, as for a
/// line reader that logs its errors on stderr. A player whose late output
/// is a legal play did answer it: its own `io.timeout`
/// (`dominion_sexp_cli.rs`,
/// `an_unflushed_player_fails_the_robustness_scenarios_with_the_real_timeout`).
#[test]
fn a_line_readers_late_parse_errors_in_a_robustness_probe_are_the_probes_warning() {
    for bot_name in ["dsx-line-reader-stdout-errors", "dsx-line-reader"] {
        let bot = bot(bot_name);
        let out = run_json(
            &[
                "--game",
                "dominion-sexp",
                "--filter",
                "robust-extra-whitespace",
                "--timeout",
                "1s",
                &bot,
            ],
            &[],
        );
        assert_eq!(
            out.code,
            0,
            "{bot_name}: {:?}\n{}",
            out.rules(),
            out.messages()
        );
        assert_eq!(
            out.rules(),
            vec!["dominion-sexp.robust.extra-whitespace".to_string()],
            "{bot_name}: {}",
            out.messages()
        );
    }
}
