//! What judging by the bot's own time costs, and what `--silence 0` saves
//! (issue 17). Not a test: nothing here asserts a time. Run with
//! `cargo bench --bench timing`; docs/performance.md quotes the output.
//!
//! * one look at a bot's scheduler counters (`transport::cpu_wait`), in µs;
//! * how many looks a generated Kalah game takes against a fast bot (whose
//!   replies come before the first look) and against a bot that computes
//!   8 ms per move (every reply is looked at), and what share of the game's
//!   time they cost;
//! * the built-in Kalah suite plus 10 generated games, defaults against
//!   `--silence 0`, side by side: wall time and time spent listening.

mod common;
use common::*;
use protocheck::controller::{self, RunConfig};
use protocheck::games::Game;
use protocheck::games::kalah;
use protocheck::scenario::Options;
use protocheck::transport::cpu_wait;
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    println!(
        "protocheck timing figures · {} CPUs",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let Some(us) = look_cost() else {
        println!(
            "own-time measure: not available here (no scheduler statistics): wall time decides"
        );
        return;
    };
    println!("one look at a bot's scheduler counters:  {us:>8.1} µs");
    for (name, envs) in [
        ("kalah-correct", vec![]),
        ("kalah-cpu-bound", vec![("KALAH_BOT_CPU_MS", "8")]),
    ] {
        let Some(bot) = build_example(name) else {
            println!("{name}: skipped (could not build it)");
            continue;
        };
        let (ms, looks) = generated_games(&bot, &envs, 40);
        println!(
            "generated kalah game vs {name:<16} {ms:>8.2} ms, {looks:>5.1} looks/game = {:.2}% of the game",
            looks * us / 10.0 / ms
        );
    }
    silence_side_by_side();
}

/// Mean cost of one look at a live single-threaded process.
fn look_cost() -> Option<f64> {
    let mut child = Command::new("sleep")
        .arg("30")
        .stdin(Stdio::null())
        .spawn()
        .ok()?;
    let pid = child.id() as i32;
    let n = 5_000;
    let start = Instant::now();
    let mut ok = true;
    for _ in 0..n {
        ok &= cpu_wait::sample(pid).is_some();
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / n as f64;
    let _ = child.kill();
    let _ = child.wait();
    ok.then_some(us)
}

/// Mean milliseconds per generated game (defaults, one job) and looks per
/// game.
fn generated_games(bot: &str, envs: &[(&str, &str)], games: usize) -> (f64, f64) {
    let scenarios = kalah::KALAH.generate(games, 7, &Options::default());
    let mut cfg: RunConfig = config(bot, None);
    cfg.bot.env.policy.set = envs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let looks_before = cpu_wait::looks();
    let start = Instant::now();
    for s in &scenarios {
        let run = controller::run(s, &kalah::KALAH, &cfg).expect("bot starts");
        assert_eq!(
            run.result.status,
            protocheck::outcome::Status::Passed,
            "{:?}",
            run.result.violations
        );
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / games as f64;
    let looks = (cpu_wait::looks() - looks_before) as f64 / games as f64;
    (ms, looks)
}

/// The built-in Kalah suite plus 10 generated games against kalah-correct:
/// wall time and listening time, with the defaults and with `--silence 0`.
fn silence_side_by_side() {
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "protocheck"])
        .status()
        .is_ok_and(|s| s.success());
    let (Some(bot), true) = (build_example("kalah-correct"), built) else {
        println!("--silence figures: skipped (could not build protocheck and kalah-correct)");
        return;
    };
    let exe = format!("{}/target/release/protocheck", env!("CARGO_MANIFEST_DIR"));
    for extra in [&[][..], &["--silence", "0"][..]] {
        let mut times = Vec::new();
        let mut listened = 0;
        for _ in 0..3 {
            let start = Instant::now();
            let out = Command::new(&exe)
                .args([
                    "--game", "kalah", "--games", "10", "--seed", "1", "--format", "json",
                ])
                .args(extra)
                .arg(&bot)
                .output()
                .expect("protocheck runs");
            times.push(start.elapsed());
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            listened = report["scenarios"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s["listened_ms"].as_u64())
                .sum::<u64>();
        }
        times.sort();
        let label = if extra.is_empty() {
            "defaults"
        } else {
            "--silence 0"
        };
        println!(
            "kalah suite + 10 games, {label:<12} {:>8.2} s (median of 3), listened {listened} ms in all",
            times[1].as_secs_f64()
        );
    }
}
