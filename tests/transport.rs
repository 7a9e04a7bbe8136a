//! The transport against hostile bots: whatever the bot does, protocheck
//! reports a verdict, and nothing it started is left running.

mod common;
use common::*;

fn hostile(name: &str, extra: &[&str]) -> (Outcome, Vec<u32>) {
    let tag = marker(name);
    let bot = bot(name);
    let scenario = fixture("kalah/south-game.yaml");
    let mut args = vec![
        "--game",
        "kalah",
        "--scenarios",
        &scenario,
        "--timeout",
        "500ms",
        "--startup-timeout",
        "500ms",
        "--exit-grace",
        "300ms",
    ];
    args.extend_from_slice(extra);
    args.push(&bot);
    let out = run_json(&args, &[("PROTOCHECK_TEST_MARKER", &tag)]);
    (out, live_processes_with(&tag))
}

#[test]
fn silent_bot_times_out() {
    let (out, left) = hostile("hostile-silent", &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.has_rule("io.timeout"), "{:?}", out.rules());
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn bot_that_ignores_sigterm_and_never_reads_is_killed() {
    let (out, left) = hostile("hostile-deaf", &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.has_rule("io.timeout"), "{:?}", out.rules());
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn endless_line_is_cut_at_the_cap() {
    let (out, left) = hostile("hostile-flood-line", &["--max-line", "4096"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.has_rule("io.line-too-long"), "{:?}", out.rules());
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn stderr_flood_is_drained_and_counted() {
    let (out, left) = hostile("hostile-flood-stderr", &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let bytes = out.report["scenarios"][0]["stderr_bytes"].as_u64().unwrap();
    assert!(bytes > 64 * 1024, "stderr bytes {bytes}");
    assert!(
        out.has_rule("kalah.process.stderr-overflow"),
        "{:?}",
        out.rules()
    );
    // The kept tail is bounded.
    assert!(
        out.report["scenarios"][0]["stderr_tail"]
            .as_str()
            .unwrap()
            .len()
            <= 4096
    );
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn exit_in_the_middle_of_the_game_is_a_crash() {
    let (out, left) = hostile("hostile-exit-midgame", &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.has_rule("io.crash"), "{:?}", out.rules());
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn grandchild_holding_the_pipe_is_killed_with_the_group() {
    let (out, left) = hostile("hostile-grandchild", &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.has_rule("io.crash"), "{:?}", out.rules());
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn crash_by_signal_names_the_signal() {
    let (out, left) = hostile("hostile-crash-signal", &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.has_rule("io.crash"), "{:?}", out.rules());
    assert!(out.messages().contains("SIGSEGV"), "{}", out.messages());
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn missing_bot_program_is_exit_2_with_a_clear_message() {
    let out = run_json(&["--game", "kalah", "./no-such-bot"], &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("cannot start bot `./no-such-bot`"),
        "{}",
        out.stderr
    );
    let out = run_json(&["--game", "kalah", "no-such-bot-on-path-xyz"], &[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no such program"), "{}", out.stderr);
}
