//! The sandbox's cost (issue 27), side by side with `--sandbox off` in the
//! same run. Not a test: the machines are shared and noisy, so nothing here
//! asserts a time. Run with `cargo bench --bench sandbox`.
//!
//! * one bot start and exit through the launcher (ruleset, seccomp filter,
//!   private TMPDIR), against the same start unconfined, in interleaved
//!   rounds: wall time, and CPU time (protocheck's and the bot's), which the
//!   load of a shared machine disturbs less; and that cost as a share of one
//!   generated Kalah game, both with `--silence 0` (the game's own work: the
//!   5 % target, docs/performance.md) and as the default run plays it
//!   (default silence, idle proofs: what users run);
//! * the built-in Kalah suite plus 10 generated games against
//!   kalah-correct, the release binary, sandboxed and with `--sandbox off`.
//!
//! `SANDBOX_BENCH_PHASES=1` also prints, per round, the start's two halves
//! and the parent's share of each (preparing the confinement, releasing
//! it); `SANDBOX_BENCH_STARTS_ONLY=1` stops after the per-start figures.

mod common;
use common::*;
use protocheck::controller;
use protocheck::games::Game;
use protocheck::games::kalah;
use protocheck::scenario::Options;
use protocheck::transport::framing::LineFramer;
use protocheck::transport::sandbox::{Mode, SandboxOptions, settle};
use protocheck::transport::{BotCommand, BotConnection, BotEvent};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const STARTS: usize = 200;
const ROUNDS: usize = 7;
const GAMES: usize = 100;

fn main() {
    let sandboxed = SandboxOptions::default();
    let off = SandboxOptions {
        mode: Mode::Off,
        ..SandboxOptions::default()
    };
    println!(
        "protocheck sandbox figures · {} CPUs · {}",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        settle(&sandboxed)
            .map(|l| l.line())
            .unwrap_or_else(|e| e.to_string())
    );
    let Some(bot) = build_example("kalah-correct") else {
        println!("skipped: could not build the kalah-correct example");
        return;
    };
    // Interleaved rounds, so a change of the machine's load hits both; the
    // cost is the median of the rounds' differences.
    let (mut on, mut off_rounds) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        on.push(start_and_exit(&bot, &sandboxed));
        off_rounds.push(start_and_exit(&bot, &off));
    }
    let wall = |r: &[PerStart]| median(r.iter().map(|p| p.wall_us).collect());
    let cpu = |r: &[PerStart]| median(r.iter().map(|p| p.cpu_us).collect());
    let cost_wall = median(
        on.iter()
            .zip(&off_rounds)
            .map(|(a, b)| a.wall_us - b.wall_us)
            .collect(),
    );
    let cost_cpu = median(
        on.iter()
            .zip(&off_rounds)
            .map(|(a, b)| a.cpu_us - b.cpu_us)
            .collect(),
    );
    let quiet_ms = generated_game_ms(&bot, &off, Some(Duration::ZERO));
    let default_ms = generated_game_ms(&bot, &off, None);
    println!(
        "bot start and exit, sandboxed:         {:>7.0} µs wall {:>7.0} µs CPU (medians of {ROUNDS} rounds × {STARTS})",
        wall(&on),
        cpu(&on)
    );
    println!(
        "bot start and exit, --sandbox off:     {:>7.0} µs wall {:>7.0} µs CPU",
        wall(&off_rounds),
        cpu(&off_rounds)
    );
    println!(
        "sandbox cost per start:                {cost_wall:>7.0} µs wall {cost_cpu:>7.0} µs CPU (median of the rounds' differences)"
    );
    println!(
        "  = {:>4.1} % of a generated Kalah game with --silence 0 ({quiet_ms:.2} ms; the target: < 5 %)",
        cost_wall / (quiet_ms * 1e3) * 100.0
    );
    println!(
        "  = {:>4.1} % of a generated Kalah game as the default run plays it ({default_ms:.2} ms: default silence, idle proofs)",
        cost_wall / (default_ms * 1e3) * 100.0
    );
    if std::env::var_os("SANDBOX_BENCH_STARTS_ONLY").is_some() {
        return;
    }
    let exe = format!("{}/target/release/protocheck", env!("CARGO_MANIFEST_DIR"));
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "protocheck"])
        .status()
        .is_ok_and(|s| s.success());
    if !built {
        println!("suite figures: skipped (could not build protocheck)");
        return;
    }
    let (mut suite_on, mut suite_off) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        suite_on.push(suite_seconds(&exe, &bot, "auto"));
        suite_off.push(suite_seconds(&exe, &bot, "off"));
    }
    println!(
        "kalah suite + 10 generated games, sandboxed:     {:>6.2} s (median of 3)",
        median(suite_on)
    );
    println!(
        "kalah suite + 10 generated games, --sandbox off: {:>6.2} s",
        median(suite_off)
    );
}

/// One round's figures per start.
struct PerStart {
    wall_us: f64,
    /// protocheck's CPU time (every thread) and its reaped children's.
    cpu_us: f64,
}

/// CPU time so far of this process and of its reaped children, in µs.
fn cpu_us() -> f64 {
    let used = |who| {
        // SAFETY: getrusage fills the struct it is given.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(who, &mut usage);
            usage
        };
        let us = |t: libc::timeval| t.tv_sec as f64 * 1e6 + t.tv_usec as f64;
        us(usage.ru_utime) + us(usage.ru_stime)
    };
    used(libc::RUSAGE_SELF) + used(libc::RUSAGE_CHILDREN)
}

/// Wall and CPU microseconds for one start of `bot` until it has exited
/// (it reads EOF at once: its stdin is closed).
fn start_and_exit(bot: &str, sandbox: &SandboxOptions) -> PerStart {
    let command = BotCommand {
        program: bot.into(),
        args: vec![],
        env: Default::default(),
        workdir: None,
    };
    let limits = protocheck::transport::Limits {
        sandbox: sandbox.clone(),
        ..Default::default()
    };
    let (start, cpu_before) = (Instant::now(), cpu_us());
    let mut spawning = Duration::ZERO;
    for _ in 0..STARTS {
        let t = Instant::now();
        let mut conn = BotConnection::spawn(&command, Box::new(LineFramer::new(1 << 16)), &limits)
            .expect("the bot starts");
        spawning += t.elapsed();
        conn.close_input();
        let deadline = Instant::now() + Duration::from_secs(10);
        while let Some(event) = conn.recv_until(deadline) {
            if matches!(event, BotEvent::Exited { .. }) {
                break;
            }
        }
        conn.terminate();
    }
    let per_start = start.elapsed().as_secs_f64() * 1e6 / STARTS as f64;
    let cpu_per_start = (cpu_us() - cpu_before) / STARTS as f64;
    if std::env::var_os("SANDBOX_BENCH_PHASES").is_some() {
        let (prepare, release) = confinement_us(&command, sandbox);
        eprintln!(
            "  {}: spawn {:.0} µs (preparing the sandbox {prepare:.0}) + exit {:.0} µs (releasing it {release:.0}) = {per_start:.0} µs",
            sandbox.mode.name(),
            spawning.as_secs_f64() * 1e6 / STARTS as f64,
            per_start - spawning.as_secs_f64() * 1e6 / STARTS as f64,
        );
    }
    PerStart {
        wall_us: per_start,
        cpu_us: cpu_per_start,
    }
}

/// Microseconds to prepare one start's confinement (folders, TMPDIR,
/// ruleset) and to release it (its TMPDIR), without starting anything:
/// the parent's share of a sandboxed start.
fn confinement_us(bot: &BotCommand, sandbox: &SandboxOptions) -> (f64, f64) {
    use protocheck::transport::sandbox::Confinement;
    let (mut prepare, mut release) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..STARTS {
        let mut command = bot.command();
        let t = Instant::now();
        let mut confinement = Confinement::prepare(sandbox, &mut command, None).expect("prepared");
        prepare += t.elapsed();
        // Nothing was started: no process of it can be left.
        confinement.processes_gone();
        let t = Instant::now();
        drop(confinement);
        release += t.elapsed();
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6 / STARTS as f64;
    (us(prepare), us(release))
}

/// Milliseconds per generated Kalah game against `bot`, with the silence
/// window `silence` (`Some(0)`: `--silence 0`; `None`: the default).
fn generated_game_ms(bot: &str, sandbox: &SandboxOptions, silence: Option<Duration>) -> f64 {
    let scenarios = kalah::KALAH.generate(GAMES, 7, &Options::default());
    let mut cfg = config(bot, silence);
    cfg.limits.sandbox = sandbox.clone();
    let start = Instant::now();
    for s in &scenarios {
        controller::run(s, &kalah::KALAH, &cfg).expect("bot starts");
    }
    start.elapsed().as_secs_f64() * 1e3 / GAMES as f64
}

/// Wall seconds of the default Kalah run plus 10 generated games.
fn suite_seconds(exe: &str, bot: &str, sandbox: &str) -> f64 {
    let start = Instant::now();
    let status = Command::new(exe)
        .args([
            "--game",
            "kalah",
            "--games",
            "10",
            "--sandbox",
            sandbox,
            bot,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("protocheck runs");
    assert!(
        status.success(),
        "kalah-correct failed under --sandbox {sandbox}"
    );
    start.elapsed().as_secs_f64()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
