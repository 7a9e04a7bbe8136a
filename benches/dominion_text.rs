//! dominion-text figures (not a test: nothing here asserts a time). Run
//! with `cargo bench --bench dominion_text`; the README quotes the output.
//!
//! * the rule engine alone: whole 4-player games per second, every seat a
//!   built-in player (militia and engine in turn: every kingdom card is
//!   bought and played, militia attacks and moat reactions included);
//! * the built-in suite against `dtext-correct`, default options, through
//!   the release binary (wall time, start to exit);
//! * one generated 4-player game against `dtext-correct` through the
//!   controller with default settings, bot start to bot exit.

mod common;
use common::*;
use protocheck::controller;
use protocheck::games::Game;
use protocheck::games::dominion::Card;
use protocheck::games::dominion::kingdom::{self, AttackReply};
use protocheck::games::dominion_text::DOMINION_TEXT;
use protocheck::games::dominion_text::players::{AttackAnswer, BuiltInPlayer, TurnPlay};
use protocheck::scenario::Options;
use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let (per_sec, turns, kingdom) = engine_games(4, 5_000);
    println!(
        "dominion-text rule engine alone:        {per_sec:>8.0} whole 4-player games/s ({turns:.0} turns per game, {kingdom} of 10 kingdom cards played; target ≥ 2000)"
    );
    let Some(bot) = build_example("dtext-correct") else {
        println!("dtext-correct figures: skipped (could not build the dtext-correct example)");
        return;
    };
    match suite_wall(&bot) {
        Some(secs) => println!(
            "built-in suite vs dtext-correct:        {secs:>8.2} s wall, default options (target < 5 s)"
        ),
        None => println!("built-in suite: skipped (could not build the release binary)"),
    }
    let (ms_mean, ms_max) = generated_games(&bot, 20);
    println!(
        "one generated 4-player game vs dtext-correct: {ms_mean:.1} ms mean, {ms_max:.1} ms max, bot start to exit, default settings (target < 150 ms)"
    );
}

/// Whole games played by the engine and the built-in players alone.
fn engine_games(players: usize, games: usize) -> (f64, f64, usize) {
    let seats = [BuiltInPlayer::Militia, BuiltInPlayer::Engine];
    let mut rng = fastrand::Rng::with_seed(1);
    let mut shuffler = fastrand::Rng::with_seed(2);
    let mut turns = 0u64;
    let mut played = BTreeSet::new();
    let start = Instant::now();
    for _ in 0..games {
        let mut game = kingdom::DominionTable::line(players, &mut shuffler);
        while game.ended.is_none() {
            let who = seats[game.current % 2];
            match who.choose(&game, &mut rng) {
                TurnPlay::Action(card, args) => {
                    let out = game.play_action(card, &args, &mut shuffler);
                    played.insert(card);
                    if out.attack {
                        for q in game.attack_order() {
                            let Some(n) = game.attack_discard_count(q) else {
                                continue;
                            };
                            let answer = BuiltInPlayer::answer_attack(&game.players[q].hand, n);
                            let reply = match &answer {
                                AttackAnswer::RevealMoat => AttackReply::RevealMoat,
                                AttackAnswer::Discard(cards) => AttackReply::Discard(cards),
                            };
                            game.resolve_attack(q, Some(reply), &mut shuffler);
                        }
                    }
                }
                TurnPlay::Buy(cards) => {
                    game.buy(&cards);
                    game.end_turn(&mut shuffler);
                    turns += 1;
                }
                TurnPlay::Pass => {
                    game.end_turn(&mut shuffler);
                    turns += 1;
                }
            }
        }
        assert!(game.supply.count(Card::Copper) <= 60);
    }
    let secs = start.elapsed().as_secs_f64();
    (
        games as f64 / secs,
        turns as f64 / games as f64,
        played.len(),
    )
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
        .args(["--game", "dominion-text", bot])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    assert!(
        status.success(),
        "dtext-correct must pass the built-in suite"
    );
    Some(start.elapsed().as_secs_f64())
}

/// Generated 4-player games, one at a time, default windows and timeouts.
fn generated_games(bot: &str, games: usize) -> (f64, f64) {
    let options = Options::default().with("players", 4);
    let scenarios = DOMINION_TEXT.generate(games, 7, &options);
    let cfg = config(bot, None);
    let mut total = 0.0;
    let mut worst: f64 = 0.0;
    for s in &scenarios {
        let start = Instant::now();
        let run = controller::run(s, &DOMINION_TEXT, &cfg).expect("bot starts");
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
