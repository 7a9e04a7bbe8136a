//! The live progress line, in a real terminal: tmux runs protocheck in a
//! pane, capture-pane reads what a user sees. The line shows while the run
//! goes on and is gone when the report is printed; with stderr not a
//! terminal, not one byte of it is written.

use crate::common;
use common::*;
use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> Option<std::process::Output> {
    Command::new("tmux").args(args).output().ok()
}

fn pane(session: &str) -> String {
    tmux(&["capture-pane", "-p", "-t", session])
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

fn progress_line(screen: &str) -> Option<&str> {
    let re = regex::Regex::new(r"\[\d+/3\] \d+ failed · \d+\.\ds").unwrap();
    screen.lines().find(|l| re.is_match(l))
}

#[test]
fn the_progress_line_shows_while_running_and_is_erased_at_the_end() {
    if tmux(&["-V"]).is_none_or(|o| !o.status.success()) {
        eprintln!("skipped: tmux is not installed (apt-get install tmux)");
        return;
    }
    let session = format!("protocheck-progress-{}", std::process::id());
    let command = format!(
        "KALAH_BOT_DELAY_MS=40 {} --game kalah --filter 'north-opening-[123]' --jobs 1 --color never --pass-env KALAH_BOT_DELAY_MS {}; echo EXIT-STATUS-$?; sleep 60",
        env!("CARGO_BIN_EXE_protocheck"),
        bot("kalah-slow")
    );
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "160",
        "-y",
        "50",
        "sh",
        "-c",
        &command,
    ]);
    assert!(
        started.is_some_and(|o| o.status.success()),
        "tmux could not start"
    );
    // Three whole games at 40 ms a move: a few seconds, or a minute on a
    // loaded machine.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen_running = None;
    let mut finished = None;
    while Instant::now() < deadline {
        let screen = pane(&session);
        if screen.contains("EXIT-STATUS-") {
            finished = Some(screen);
            break;
        }
        if seen_running.is_none()
            && let Some(line) = progress_line(&screen)
        {
            seen_running = Some(line.to_string());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = tmux(&["kill-session", "-t", &session]);
    let line = seen_running.expect("no progress line was ever shown");
    assert!(line.contains("running north-opening-"), "{line}");
    let screen = finished.expect("protocheck did not finish within 120 s");
    assert!(screen.contains("EXIT-STATUS-0"), "{screen}");
    assert!(screen.contains("3 passed, 0 failed"), "{screen}");
    assert_eq!(
        progress_line(&screen),
        None,
        "the line was not erased:\n{screen}"
    );
}

#[test]
fn no_progress_bytes_without_a_terminal() {
    let out = Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args([
            "--game",
            "kalah",
            "--filter",
            "north-opening-1",
            "--jobs",
            "1",
        ])
        .arg(bot("kalah-slow"))
        .args(["--pass-env", "KALAH_BOT_DELAY_MS"])
        .env("KALAH_BOT_DELAY_MS", "20")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains('\x1b') && !stderr.contains("failed ·"),
        "{stderr:?}"
    );
}
