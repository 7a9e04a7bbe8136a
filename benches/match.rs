//! `protocheck match` against ManKalah.jar, the course's Kalah engine, with
//! the same two agents (issue 20). Not a test: nothing here asserts a time.
//! Run with `cargo bench --bench match`; set `MANKALAH_JAR` to ManKalah.jar
//! for the side-by-side figure (`PROTOCHECK_BENCH_GAMES=N`, default 20).
//!
//! The agents are the correct Kalah sample bot twice (a C-speed agent:
//! protocheck's own time per game is what is measured, not a search). The
//! figure is ManKalah's time per game over protocheck's, the target at
//! least 100×.

mod common;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let games: usize = std::env::var("PROTOCHECK_BENCH_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(20);
    let Some(bot) = common::build_example("kalah-correct") else {
        println!("kalah-correct: skipped (could not build it)");
        return;
    };
    let exe = env!("CARGO_BIN_EXE_protocheck");
    println!("protocheck match figures · kalah-correct vs kalah-correct · {games} games");

    // As a user runs it (the pauses in which out-of-turn output is seen,
    // paced by the bots), and with `--silence 0`.
    let per_game = |extra: &[&str]| {
        let started = Instant::now();
        let status = Command::new(exe)
            .args(["match", "--game", "kalah", &bot, &bot, "--format", "json"])
            .args(["--games", &games.to_string()])
            .args(extra)
            .env("KALAH_BOT_SEED", "7")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run protocheck match");
        (
            started.elapsed() / games as u32,
            status.code().unwrap_or(-1),
        )
    };
    // One game at a time (as ManKalah.jar plays), then as many at once as
    // the machine has CPUs (the default `--jobs`).
    let (one_by_one, code) = per_game(&["--jobs", "1"]);
    println!(
        "protocheck match --jobs 1:          {:>8.2} ms per game  (exit {code})",
        ms(one_by_one)
    );
    let (ours, code) = per_game(&[]);
    println!(
        "protocheck match (default --jobs):  {:>8.2} ms per game  (exit {code})",
        ms(ours)
    );
    let (quiet, code) = per_game(&["--silence", "0s", "--jobs", "1"]);
    println!(
        "  --silence 0 --jobs 1:             {:>8.2} ms per game  (exit {code})",
        ms(quiet)
    );

    let Some(jar) = std::env::var_os("MANKALAH_JAR") else {
        println!(
            "ManKalah.jar: skipped (set MANKALAH_JAR to its path for the side-by-side figure)"
        );
        return;
    };
    let started = Instant::now();
    let mut failed = 0;
    for _ in 0..games {
        let status = Command::new("java")
            .arg("-jar")
            .arg(&jar)
            .args([&bot, &bot])
            .env("KALAH_BOT_SEED", "7")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        failed += usize::from(!status.is_ok_and(|s| s.success()));
    }
    let theirs = started.elapsed() / games as u32;
    println!(
        "ManKalah.jar:      {:>10.2} ms per game  ({failed} runs not exiting 0)",
        ms(theirs)
    );
    for (what, time) in [
        (" --jobs 1", one_by_one),
        (" (default --jobs)", ours),
        (" --silence 0 --jobs 1", quiet),
    ] {
        println!(
            "ratio{what}: {:>10.1}×  (target: at least 100×)",
            theirs.as_secs_f64() / time.as_secs_f64().max(1e-9)
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
