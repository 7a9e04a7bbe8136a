//! Evolution figures (not a test: nothing asserts a time on a shared
//! machine). Run with `cargo bench --bench evolution`; the README quotes
//! the output.
//!
//! * the rule engine alone: whole 8-player games per second (every seat
//!   played by the reference strategy, in-process);
//! * the built-in suite against `evo-correct` with the default options;
//! * one generated 4-player game against `evo-correct`, wall time including
//!   the listener, the spawn, the connection and the close;
//! * the JSON framer: 1-byte writes, many values per write, a 1 MiB value,
//!   and the cost per byte at 1 MiB and 4 MiB (linear time).

mod common;
use common::*;
use protocheck::controller;
use protocheck::games::Game;
use protocheck::games::evolution::EVOLUTION;
use protocheck::games::evolution::dealer::{Request, Style, Table};
use protocheck::games::evolution::framer::JsonFramer;
use protocheck::games::evolution::model::Species;
use protocheck::games::evolution::strategy::{self, FatRequest};
use protocheck::scenario::Options;
use protocheck::transport::framing::{FrameEvent, Framer};
use std::time::Instant;

fn main() {
    let (games, turns) = engine_games(8, 2_000);
    println!(
        "evolution rule engine alone:        {games:>8.0} whole 8-player games/s ({turns:.1} turns/game; target ≥ 1 000)"
    );
    match build_example("evo-correct") {
        Some(bot) => {
            let (n, secs) = builtin_suite(&bot);
            println!(
                "evolution built-in suite vs evo-correct: {n} scenarios in {secs:.2} s (default options, {} jobs; target < 5 s)",
                jobs()
            );
            let ms = generated_game(&bot, 4, 20);
            println!(
                "one generated 4-player game vs evo-correct: {ms:.1} ms wall (median of 20, TCP set-up included; target < 200 ms)"
            );
        }
        None => println!("evolution client figures: skipped (could not build evo-correct)"),
    }
    framing_figures();
}

fn jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Whole games with every seat played by the reference strategy.
fn engine_games(players: usize, count: usize) -> (f64, f64) {
    let start = Instant::now();
    let mut turns = 0u64;
    for g in 0..count {
        let mut rng = fastrand::Rng::with_seed(g as u64);
        let mut t = Table::new(players, g % players, &[Style::Reference], &mut rng);
        loop {
            match t.advance() {
                Request::Turn(..) => {
                    let b = t.bot_index().unwrap();
                    let p = &t.dealer.players[b];
                    let a = strategy::choose(&p.boards, &p.hand).unwrap_or_default();
                    t.apply_turn(a);
                }
                Request::Feed(state, _) => {
                    let others: Vec<&[Species]> = state.4.iter().map(Vec::as_slice).collect();
                    let choice = strategy::feed(&state.1, &others, FatRequest::Room).unwrap();
                    t.apply_bot_feed(choice);
                }
                Request::End => break,
                // Only a table with relayed seats (a match) waits or
                // sends `start` and `choose` apart.
                other => panic!("no seat is relayed, yet the dealer said {other:?}"),
            }
        }
        turns += u64::from(t.turn);
    }
    let secs = start.elapsed().as_secs_f64();
    (count as f64 / secs, turns as f64 / count as f64)
}

fn builtin_suite(bot: &str) -> (usize, f64) {
    let suite = protocheck::scenario::builtin::suite("evolution").expect("built-in suite loads");
    let skips = vec![None; suite.len()];
    let cfg = config(bot, None);
    let start = Instant::now();
    // --keep-going: every scenario starts as soon as a job is free, as the
    // bench has always measured.
    let rules = protocheck::suite::StopRules {
        fail_fast: false,
        keep_going: true,
        budget: None,
    };
    let runs = protocheck::suite::run_all(&suite, &skips, &EVOLUTION, &cfg, jobs(), rules, &|_| {})
        .expect("the client starts")
        .runs;
    let secs = start.elapsed().as_secs_f64();
    let failed = runs
        .iter()
        .filter(|r| r.result.status != protocheck::outcome::Status::Passed)
        .count();
    assert_eq!(failed, 0, "evo-correct must pass the suite");
    (suite.len(), secs)
}

fn generated_game(bot: &str, players: u32, count: usize) -> f64 {
    let options = Options::default().with("players", players);
    let games = EVOLUTION.generate(count, 1, &options);
    let cfg = config(bot, None);
    let mut ms: Vec<f64> = games
        .iter()
        .map(|g| {
            let start = Instant::now();
            let run = controller::run(g, &EVOLUTION, &cfg).expect("the client starts");
            assert_eq!(run.result.status, protocheck::outcome::Status::Passed);
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    ms[ms.len() / 2]
}

/// Frame `chunks` and count the completed values.
fn frame(chunks: &[&[u8]], cap: usize) -> usize {
    let mut f = JsonFramer::new(cap);
    let mut out = Vec::new();
    let mut values = 0;
    for c in chunks {
        f.feed(c, &mut out);
        values += out
            .drain(..)
            .filter(|e| matches!(e, FrameEvent::Message(m) if m.ends_with(b"\n")))
            .count();
    }
    values
}

fn framing_figures() {
    let action = b"[0,[[1,3]],[],[[1,2]],[]] ";
    let singles: Vec<&[u8]> = action.chunks(1).collect();
    let reps = 20_000;
    let start = Instant::now();
    for _ in 0..reps {
        assert_eq!(frame(&singles, 64 * 1024), 1);
    }
    let per = start.elapsed().as_secs_f64() * 1e6 / reps as f64;
    println!("json framing, an Action4 in 1-byte writes: {per:>8.2} µs per message");
    let many: Vec<u8> = action.repeat(10_000);
    let start = Instant::now();
    assert_eq!(frame(&[&many], 64 * 1024), 10_000);
    let per = start.elapsed().as_secs_f64() * 1e9 / 10_000.0;
    println!("json framing, 10 000 values in one write:  {per:>8.0} ns per message");
    for mib in [1usize, 4] {
        let big = format!("[{}0] ", "1,".repeat(mib * 512 * 1024));
        let start = Instant::now();
        assert_eq!(frame(&[big.as_bytes()], 8 * 1024 * 1024), 1);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "json framing, one {mib} MiB value:            {:>8.1} ms ({:.1} ns per byte)",
            secs * 1e3,
            secs * 1e9 / big.len() as f64
        );
    }
}
