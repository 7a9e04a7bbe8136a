//! Performance figures (not a test: the machines are shared and noisy, so
//! nothing here asserts a time). Run with `cargo bench`; the README quotes
//! the output.
//!
//! * per-message overhead of protocheck's transport against a raw pipe
//!   round trip with the same trivial echo bot (`cat`), in the same run;
//! * generated Kalah games per second against the fastest sample bot, and
//!   the same games played in-process by the rule engine alone.

use protocheck::controller::{self, RunConfig};
use protocheck::games::Game;
use protocheck::games::kalah::{self, opponent, rules::Position};
use protocheck::scenario::{Options, Strategy, SwapPolicy};
use protocheck::transport::framing::LineFramer;
use protocheck::transport::{BotCommand, BotConnection, BotEvent, Limits};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUND_TRIPS: usize = 20_000;
const MESSAGE: &[u8] = b"CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n";

fn main() {
    println!(
        "protocheck figures · {} · {} CPUs",
        machine(),
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    let raw = raw_pipe_round_trip();
    let ours = transport_round_trip();
    println!(
        "round trip, raw pipe (cat):            {:>8.2} µs/message",
        raw
    );
    println!(
        "round trip, protocheck transport (cat): {:>8.2} µs/message",
        ours
    );
    println!(
        "transport overhead:                     {:>8.2}× raw (target ≤ 2×)",
        ours / raw
    );
    let engine = kalah_engine_games();
    println!(
        "kalah rule engine alone:                {:>8.0} games/s ({:.1} µs per game, {:.1} plies/game)",
        engine.0, engine.1, engine.2
    );
    match build_example("kalah-correct") {
        Some(bot) => {
            let (per_sec, ms, plies) = kalah_generated_games(&bot);
            println!(
                "kalah generated games vs kalah-correct: {:>8.1} games/s ({:.2} ms per game, {:.1} plies/game, --silence 0, 1 job)",
                per_sec, ms, plies
            );
        }
        None => {
            println!("kalah generated games: skipped (could not build the kalah-correct example)")
        }
    }
    let (paths, walls) = quoridor_rule_engine();
    println!("quoridor path checks (9×9, 8 walls):    {paths:>8.0} per second");
    println!("quoridor legal-wall sets (9×9, 8 walls):{walls:>8.0} per second");
    match build_example("qtp-correct") {
        Some(engine) => {
            let (per_sec, ms) = quoridor_generated_games(&engine);
            println!(
                "quoridor generated games vs qtp-correct:{per_sec:>8.1} games/s ({ms:.1} ms per game, sizes 5/7/9, 1 job)"
            );
            let (n, secs) = quoridor_builtin_suite(&engine);
            println!(
                "quoridor built-in suite vs qtp-correct: {n} scenarios in {secs:.2} s (1 job, --silence 0)"
            );
        }
        None => println!("quoridor figures: skipped (could not build the qtp-correct example)"),
    }
}

fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{model} ({})", std::env::consts::OS)
}

/// The floor: write a line to `cat`, read it back, with nothing in between.
fn raw_pipe_round_trip() -> f64 {
    let mut child = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let run = |n: usize,
               stdin: &mut std::process::ChildStdin,
               stdout: &mut BufReader<std::process::ChildStdout>,
               line: &mut String| {
        for _ in 0..n {
            stdin.write_all(MESSAGE).unwrap();
            stdin.flush().unwrap();
            line.clear();
            stdout.read_line(line).unwrap();
        }
    };
    run(1000, &mut stdin, &mut stdout, &mut line); // warm-up
    let start = Instant::now();
    run(ROUND_TRIPS, &mut stdin, &mut stdout, &mut line);
    let per = start.elapsed().as_secs_f64() * 1e6 / ROUND_TRIPS as f64;
    drop(stdin);
    let _ = child.wait();
    per
}

/// The same exchange through protocheck's transport: writer thread,
/// framing reader thread, event queue, deadline.
fn transport_round_trip() -> f64 {
    let bot = BotCommand {
        program: "cat".into(),
        args: vec![],
        env: vec![],
    };
    let limits = Limits::default();
    let mut conn =
        BotConnection::spawn(&bot, Box::new(LineFramer::new(limits.message_cap)), &limits)
            .expect("cat");
    let run = |n: usize, conn: &BotConnection| {
        for _ in 0..n {
            conn.send(MESSAGE.to_vec());
            match conn.recv_until(Instant::now() + Duration::from_secs(5)) {
                Some(BotEvent::Message { .. }) => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    };
    run(1000, &conn);
    let start = Instant::now();
    run(ROUND_TRIPS, &conn);
    let per = start.elapsed().as_secs_f64() * 1e6 / ROUND_TRIPS as f64;
    conn.terminate();
    per
}

/// Whole Kalah(7,7) games, both sides played by the built-in opponents.
fn kalah_engine_games() -> (f64, f64, f64) {
    let mut rng = fastrand::Rng::with_seed(1);
    let games = 20_000;
    let mut plies = 0u64;
    let start = Instant::now();
    for i in 0..games {
        let mut p = Position::new(7, 7);
        let strategy = if i % 2 == 0 {
            Strategy::Random
        } else {
            Strategy::Greedy
        };
        while !p.is_over() {
            let m = opponent::choose(&p, strategy, SwapPolicy::Random, &mut rng);
            p.play(m).unwrap();
            plies += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    (
        games as f64 / secs,
        secs * 1e6 / games as f64,
        plies as f64 / games as f64,
    )
}

/// Generated games through the whole controller against a real bot process.
fn kalah_generated_games(bot: &str) -> (f64, f64, f64) {
    let games = 200;
    let scenarios = kalah::KALAH.generate(games, 7, &Options::default());
    let cfg = config(bot);
    let start = Instant::now();
    let mut plies = 0usize;
    for s in &scenarios {
        let run = controller::run(s, &kalah::KALAH, &cfg).expect("bot starts");
        assert!(
            run.result
                .violations
                .iter()
                .all(|v| v.severity == protocheck::verdict::Severity::Warn),
            "{:?}",
            run.result.violations
        );
        plies += run
            .result
            .transcript
            .iter()
            .filter(|l| l.text.starts_with("CHANGE"))
            .count();
    }
    let secs = start.elapsed().as_secs_f64();
    (
        games as f64 / secs,
        secs * 1e3 / games as f64,
        plies as f64 / games as f64,
    )
}

/// Build a sample bot in release mode and return its path.
fn build_example(name: &str) -> Option<String> {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--example", name])
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    let path = format!(
        "{}/target/release/examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::path::Path::new(&path).exists().then_some(path)
}

/// A mid-game 9×9 position with walls, for the rule-engine figures.
fn quoridor_position() -> protocheck::games::quoridor::rules::Board {
    use protocheck::games::quoridor::notation::{Command, parse_command};
    use protocheck::games::quoridor::rules::{Action, Board};
    let mut b = Board::new(9, 10).unwrap();
    for line in [
        "playmove black E8",
        "playmove white E2",
        "playwall black D3 horizontal",
        "playwall white D7 horizontal",
        "playwall black F3 horizontal",
        "playwall white F7 horizontal",
        "playwall black B5 vertical",
        "playwall white G5 vertical",
        "playwall black A2 horizontal",
        "playwall white H8 horizontal",
    ] {
        match parse_command(line).unwrap() {
            Command::PlayMove(c, v) => b.play(c, Action::Step(v)).unwrap(),
            Command::PlayWall(c, w) => b.play(c, Action::Place(w)).unwrap(),
            _ => unreachable!(),
        }
    }
    b
}

/// Shortest-path searches (the path rule's work) and whole legal-wall
/// sets per second, in-process.
fn quoridor_rule_engine() -> (f64, f64) {
    use protocheck::games::quoridor::rules::Colour;
    let b = quoridor_position();
    let n = 200_000;
    let mut total = 0u64;
    let start = Instant::now();
    for i in 0..n {
        let c = if i % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        total += u64::from(std::hint::black_box(&b).shortest_path_len(c).unwrap_or(0));
    }
    let paths = n as f64 / start.elapsed().as_secs_f64();
    std::hint::black_box(total);
    let n = 5_000;
    let mut walls = Vec::new();
    let start = Instant::now();
    for i in 0..n {
        let c = if i % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        walls.clear();
        std::hint::black_box(&b).legal_walls(c, &mut walls);
    }
    (paths, n as f64 / start.elapsed().as_secs_f64())
}

fn quoridor_generated_games(engine: &str) -> (f64, f64) {
    use protocheck::games::quoridor::QUORIDOR;
    let games = 30;
    let scenarios = QUORIDOR.generate(games, 7, &Options::default());
    let cfg = config(engine);
    let start = Instant::now();
    for s in &scenarios {
        let run = controller::run(s, &QUORIDOR, &cfg).expect("engine starts");
        assert_eq!(
            run.result.status,
            protocheck::outcome::Status::Passed,
            "{:?}",
            run.result.violations
        );
    }
    let secs = start.elapsed().as_secs_f64();
    (games as f64 / secs, secs * 1e3 / games as f64)
}

fn quoridor_builtin_suite(engine: &str) -> (usize, f64) {
    use protocheck::games::quoridor::QUORIDOR;
    let suite = protocheck::scenario::builtin::suite("quoridor").expect("built-in suite loads");
    let cfg = config(engine);
    let start = Instant::now();
    for s in &suite {
        controller::run(s, &QUORIDOR, &cfg).expect("engine starts");
    }
    (suite.len(), start.elapsed().as_secs_f64())
}

/// Run settings for figures: no pauses between moves.
fn config(bot: &str) -> RunConfig {
    RunConfig {
        bot: BotCommand {
            program: bot.into(),
            args: vec![],
            env: vec![],
        },
        limits: Limits::default(),
        timeout: None,
        startup_timeout: None,
        exit_grace: None,
        silence: Some(Duration::ZERO),
        strict: false,
        max_output: protocheck::controller::bounds::DEFAULT_MAX_OUTPUT,
    }
}
