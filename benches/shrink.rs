//! The time to shrink a failing generated game (docs/shrinking.md), per
//! game that shrinks. Not a test: the machines are shared and noisy, so
//! nothing here asserts a time. Run with `cargo bench --bench shrink`.
//!
//! Kalah: `kalah-late-blunder` (fails once protocheck's store holds 25
//! seeds) over the first generated games of a few seeds; for each failing
//! game, the moves before and after, the runs, and the wall time, with the
//! default budget (30 s).

mod common;
use common::*;
use protocheck::controller;
use protocheck::games::Game;
use protocheck::games::kalah;
use protocheck::scenario::Options;
use protocheck::shrink::{self, Shrinking};
use std::time::Instant;

const SEEDS: [u64; 3] = [1, 2, 3];
const GAMES: usize = 4;

fn main() {
    println!(
        "protocheck shrink figures · {} CPUs · budget {} per game",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        humantime::format_duration(shrink::DEFAULT_TIME)
    );
    let Some(bot) = build_example("kalah-late-blunder") else {
        println!("skipped: could not build the kalah-late-blunder example");
        return;
    };
    let cfg = config(&bot, None);
    let mut times = Vec::new();
    for seed in SEEDS {
        for scenario in kalah::KALAH.generate(GAMES, seed, &Options::default()) {
            let run = controller::run(&scenario, &kalah::KALAH, &cfg).expect("bot starts");
            if shrink::failing_rule(&run).is_none() {
                continue;
            }
            let start = Instant::now();
            let shrinking =
                shrink::shrink(&kalah::KALAH, &cfg, &scenario, &run, shrink::DEFAULT_TIME);
            let seconds = start.elapsed().as_secs_f64();
            times.push(seconds);
            let line = match &shrinking {
                Shrinking::Shrunk(s) => format!(
                    "{:>3} → {:>3} moves in {:>4} runs{}",
                    s.from,
                    s.to,
                    s.runs,
                    if s.complete { "" } else { " (budget spent)" }
                ),
                other => other.summary(shrink::DEFAULT_TIME),
            };
            println!(
                "kalah seed {seed} {:<34} {line}, {seconds:>6.2} s",
                scenario.name
            );
        }
    }
    if !times.is_empty() {
        times.sort_by(f64::total_cmp);
        println!(
            "kalah: median {:.2} s, slowest {:.2} s over {} failing games",
            times[times.len() / 2],
            times[times.len() - 1],
            times.len()
        );
    }
}
