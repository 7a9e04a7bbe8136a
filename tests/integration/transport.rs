//! The transport against hostile bots: whatever the bot does, protocheck
//! reports a verdict, and nothing it started is left running.

use crate::common;
use common::*;

/// Run a hostile bot on a whole-game fixture. Bots that are *not* about
/// timeouts get a generous limit, so a loaded machine cannot turn their
/// verdict into a timeout.
fn hostile(name: &str, extra: &[&str]) -> (Outcome, Vec<u32>) {
    let limit = if ["hostile-silent", "hostile-deaf", "hostile-flood-stderr"].contains(&name) {
        "500ms"
    } else {
        "10s"
    };
    let tag = marker(name);
    let bot = bot(name);
    let scenario = fixture("kalah/south-game.yaml");
    let mut args = vec![
        "--game",
        "kalah",
        "--scenarios",
        &scenario,
        "--timeout",
        limit,
        "--startup-timeout",
        limit,
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

#[test]
fn ctrl_c_kills_every_bot_and_exits_2() {
    let tag = marker("ctrl-c");
    let bot = bot("hostile-deaf");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args([
            "--game",
            "kalah",
            "--jobs",
            "2",
            "--timeout",
            "60s",
            "--startup-timeout",
            "60s",
            "--pass-env",
            "PROTOCHECK_TEST_MARKER",
            &bot,
        ])
        .env("PROTOCHECK_TEST_MARKER", &tag)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let me = child.id();
    let bots = || {
        live_processes_with(&tag)
            .into_iter()
            .filter(|&p| p != me)
            .count()
    };
    // Wait (bounded) until both workers have started their bots.
    for _ in 0..200 {
        if bots() >= 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    assert_eq!(bots(), 2, "both bots should be running");
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(me as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2));
    // SIGKILL is delivered at once, but on a loaded machine a killed
    // process may need a moment of CPU to finish dying.
    for _ in 0..100 {
        if bots() == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(bots(), 0, "bots left running after Ctrl-C");
}

#[test]
fn a_response_that_never_ends_is_cut_at_the_reply_cap() {
    // A QTP engine that opens a response and then floods it with lines
    // forever: protocheck must stop reading at the cap, not buffer for the
    // whole reply deadline.
    let dir = std::env::temp_dir().join(format!(
        "protocheck-flood-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = dir.join("flood.sh");
    std::fs::write(
        &engine,
        "#!/bin/sh\nread line\necho '= flood'\nwhile :; do echo 'more'; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tag = marker("reply-cap");
    let scenario = fixture("quoridor/name.yaml");
    let out = run_json(
        &[
            "--game",
            "quoridor",
            "--scenarios",
            &scenario,
            "--timeout",
            "60s",
            engine.to_str().unwrap(),
        ],
        &[("PROTOCHECK_TEST_MARKER", &tag)],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.has_rule("io.line-too-long"), "{:?}", out.rules());
    // The cap, not the 60 s reply deadline, ended it.
    assert!(out.messages().contains("4096 lines"), "{}", out.messages());
    assert!(!out.has_rule("io.timeout"), "{:?}", out.rules());
    assert!(live_processes_with(&tag).is_empty());
}
