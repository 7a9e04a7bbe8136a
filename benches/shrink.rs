//! The time to shrink a failing generated game (docs/shrinking.md), per
//! game that shrinks. Not a test: the machines are shared and noisy, so
//! nothing here asserts a time. Run with `cargo bench --bench shrink`.
//!
//! Kalah: `kalah-late-blunder` (fails once protocheck's store holds 25
//! seeds); QTP: `qtp-late-blunder` (fails once the other pawn stands on the
//! centre cell); dominion-text and dominion-sexp: `dtext-late-blunder` and
//! `dsx-late-blunder` (fail once someone gained an estate or a duchy);
//! Evolution: `evo-late-blunder` (fails once dealt a carnivore of food 7 or
//! 8); over the first generated games of a few seeds. For each
//! failing game: the moves before and after, the runs, and the wall time,
//! with the default budget (30 s).

mod common;
use common::*;
use protocheck::controller;
use protocheck::games::Game;
use protocheck::games::{dominion_sexp, dominion_text, evolution, kalah, quoridor};
use protocheck::scenario::Options;
use protocheck::shrink::{self, Shrinking};
use std::time::Instant;

const SEEDS: [u64; 3] = [1, 2, 3];

fn main() {
    println!(
        "protocheck shrink figures · {} CPUs · budget {} per game",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        humantime::format_duration(shrink::DEFAULT_TIME)
    );
    bench(&kalah::KALAH, "kalah-late-blunder", 4);
    bench(&quoridor::QUORIDOR, "qtp-late-blunder", 12);
    bench(&dominion_text::DOMINION_TEXT, "dtext-late-blunder", 5);
    bench(&dominion_sexp::DOMINION_SEXP, "dsx-late-blunder", 5);
    bench(&evolution::EVOLUTION, "evo-late-blunder", 12);
}

/// Shrink every failing game among the first `games` of each seed.
fn bench(game: &dyn Game, bot: &str, games: usize) {
    let Some(bot) = build_example(bot) else {
        println!("skipped: could not build the {bot} example");
        return;
    };
    let cfg = config(&bot, None);
    let mut times = Vec::new();
    let id = game.id();
    for seed in SEEDS {
        for scenario in game.generate(games, seed, &Options::default()) {
            let run = controller::run(&scenario, game, &cfg).expect("bot starts");
            if shrink::failing_rule(&run).is_none() {
                continue;
            }
            let start = Instant::now();
            let shrinking = shrink::shrink(game, &cfg, &scenario, &run, shrink::DEFAULT_TIME);
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
                "{id} seed {seed} {:<34} {line}, {seconds:>6.2} s",
                scenario.name
            );
        }
    }
    if !times.is_empty() {
        times.sort_by(f64::total_cmp);
        println!(
            "{id}: median {:.2} s, slowest {:.2} s over {} failing games",
            times[times.len() / 2],
            times[times.len() - 1],
            times.len()
        );
    }
}
