//! dominion-sexp figures (not a test: nothing here asserts a time). Run
//! with `cargo bench --bench dominion_sexp`; the README quotes the output.
//!
//! * the rule engine alone: whole 4-player games per second, every seat a
//!   built-in player (big money and random legal in turn);
//! * the built-in suite against `dsx-correct`, default options, through the
//!   release binary (wall time, start to exit);
//! * one generated 2-player game against `dsx-correct` through the
//!   controller with default settings, bot start to bot exit.

mod common;
use common::*;
use protocheck::controller;
use protocheck::games::Game;
use protocheck::games::dominion_sexp::messages::Card;
use protocheck::games::dominion_sexp::players::BuiltInPlayer;
use protocheck::games::dominion_sexp::rules::{self, Supply};
use protocheck::games::dominion_sexp::{DOMINION_SEXP, sexp};
use protocheck::scenario::Options;
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let (per_sec, plays) = engine_games(4, 5_000);
    println!(
        "dominion-sexp rule engine alone:        {per_sec:>8.0} whole 4-player games/s ({plays:.0} plays per game; target ≥ 5000)"
    );
    let (per_sec, plays) = engine_games(2, 5_000);
    println!(
        "dominion-sexp rule engine alone:        {per_sec:>8.0} whole 2-player games/s ({plays:.0} plays per game)"
    );
    let unbalanced = unbalanced_read();
    println!(
        "64 KiB unbalanced S-expression:         {unbalanced:>8.2} ms to reject (1-byte and one-write feeds alike)"
    );
    let Some(bot) = build_example("dsx-correct") else {
        println!("dsx-correct figures: skipped (could not build the dsx-correct example)");
        return;
    };
    match suite_wall(&bot) {
        Some(secs) => println!(
            "built-in suite vs dsx-correct:          {secs:>8.2} s wall, default options (target < 3 s)"
        ),
        None => println!("built-in suite: skipped (could not build the release binary)"),
    }
    let (ms_mean, ms_max) = generated_games(&bot, 20);
    println!(
        "one generated 2-player game vs dsx-correct: {ms_mean:.1} ms mean, {ms_max:.1} ms max, bot start to exit, default settings (target < 100 ms)"
    );
}

/// Whole games played by the engine and the built-in players alone.
fn engine_games(players: usize, games: usize) -> (f64, f64) {
    let names = ["alpha", "bravo", "charlie", "delta"];
    let mut rng = fastrand::Rng::with_seed(1);
    let mut plays = 0u64;
    let start = Instant::now();
    for _ in 0..games {
        let mut game = rules::DominionTable::v1(&names[..players], Supply::v1(players), &mut rng);
        while game.ended.is_none() {
            let who = if game.current.is_multiple_of(2) {
                BuiltInPlayer::BigMoney
            } else {
                BuiltInPlayer::RandomLegal
            };
            let play = who.choose(&game, &mut rng);
            game.apply(play, &mut rng)
                .expect("built-in plays are legal");
            plays += 1;
        }
        assert!(game.ended.is_some() && game.supply.count(Card::Copper) <= 60);
    }
    let secs = start.elapsed().as_secs_f64();
    (games as f64 / secs, plays as f64 / games as f64)
}

/// Milliseconds to reject a 64 KiB reply that never closes its list.
fn unbalanced_read() -> f64 {
    let mut data = vec![b'('; 1];
    data.extend(std::iter::repeat_n(b'a', sexp::MAX_REPLY_BYTES + 1));
    let start = Instant::now();
    let mut reader = sexp::Reader::new();
    for chunk in data.chunks(1) {
        if reader.feed(chunk).1.is_some() {
            break;
        }
    }
    start.elapsed().as_secs_f64() * 1e3
}

fn suite_wall(bot: &str) -> Option<f64> {
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "protocheck"])
        .status()
        .is_ok_and(|s| s.success());
    if !built {
        return None;
    }
    let exe = format!("{}/target/release/protocheck", env!("CARGO_MANIFEST_DIR"));
    let start = Instant::now();
    let status = Command::new(exe)
        .args(["--game", "dominion-sexp", bot])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    assert!(status.success(), "dsx-correct must pass the built-in suite");
    Some(start.elapsed().as_secs_f64())
}

/// Generated 2-player games, one at a time, default windows and timeouts.
fn generated_games(bot: &str, games: usize) -> (f64, f64) {
    let options = Options::default().with("players", 2);
    let scenarios = DOMINION_SEXP.generate(games, 7, &options);
    let cfg = config(bot, None);
    let mut total = 0.0;
    let mut worst: f64 = 0.0;
    for s in &scenarios {
        let start = Instant::now();
        let run = controller::run(s, &DOMINION_SEXP, &cfg).expect("bot starts");
        let ms = start.elapsed().as_secs_f64() * 1e3;
        assert_eq!(
            run.result.status,
            protocheck::outcome::Status::Passed,
            "{:?}",
            run.result.violations
        );
        total += ms;
        worst = worst.max(ms);
    }
    (total / games as f64, worst)
}
