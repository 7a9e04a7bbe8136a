//! Performance figures (not a test: the machines are shared and noisy, so
//! nothing here asserts a time). Run with `cargo bench`; the README quotes
//! the output.
//!
//! * per-message overhead of protocheck's transport against a raw pipe
//!   round trip with the same trivial echo bot (`cat`), in the same run;
//! * generated Kalah games per second against the fastest sample bot, and
//!   the same games played in-process by the rule engine alone;
//! * what counting the checks and situations of those games costs
//!   (issue 30: under 2 % of a generated game).

mod common;
use common::*;
use protocheck::controller;
use protocheck::coverage::{Coverage, Summary};
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
            let (per_sec, ms, plies, coverages) = kalah_generated_games(&bot);
            println!(
                "kalah generated games vs kalah-correct: {:>8.1} games/s ({:.2} ms per game, {:.1} plies/game, --silence 0, 1 job)",
                per_sec, ms, plies
            );
            let counting = coverage_counting(&coverages);
            println!(
                "counting checks and situations:         {:>8.1} µs per game ({:.2} % of a generated game, target < 2 %)",
                counting,
                counting / (ms * 1e3) * 100.0
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
    default_run_figures();
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
        env: Default::default(),
        workdir: None,
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
fn kalah_generated_games(bot: &str) -> (f64, f64, f64, Vec<Coverage>) {
    let games = 200;
    let scenarios = kalah::KALAH.generate(games, 7, &Options::default());
    let cfg = config(bot, Some(Duration::ZERO));
    let start = Instant::now();
    let mut plies = 0usize;
    let mut coverages = Vec::new();
    for s in &scenarios {
        let run = controller::run(s, &kalah::KALAH, &cfg).expect("bot starts");
        coverages.push(run.result.coverage.clone());
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
        coverages,
    )
}

/// One game's recorded counts, as judging would make them again.
struct RecordedCounts {
    /// One list of kept ids per judged reply (each kept io.timeout is one).
    replies: u64,
    rules: Vec<(&'static str, u64)>,
    situations: Vec<(&'static str, u64)>,
}

/// µs per game that counting costs: every count the games' runs made, made
/// again into a fresh sink as judging makes it (the list of rule ids a
/// judgement hands over with each reply, the ledger's tally of each check,
/// the situations), then the run's summary. The games' time above already
/// includes it, so this is the share of it.
fn coverage_counting(coverages: &[Coverage]) -> f64 {
    let rounds = 20;
    // Judging counts the catalogue's `&'static str` ids: the recorded ones,
    // leaked once, stand for them.
    let leak = |id: &str| -> &'static str { Box::leak(id.to_string().into_boxed_str()) };
    let coverages: Vec<RecordedCounts> = coverages
        .iter()
        .map(|c| RecordedCounts {
            replies: c.rules.get("io.timeout").map_or(0, |t| t.checked),
            rules: c
                .rules
                .iter()
                .map(|(id, t)| (leak(id), t.checked))
                .collect(),
            situations: c.situations.iter().map(|(id, n)| (leak(id), *n)).collect(),
        })
        .collect();
    let start = Instant::now();
    for _ in 0..rounds {
        let mut run = Coverage::default();
        for RecordedCounts {
            replies,
            rules,
            situations,
        } in &coverages
        {
            let mut scenario = Coverage::default();
            // One list per judged reply (each kept io.timeout is one).
            for _ in 0..*replies {
                let handed: Vec<&str> = Vec::with_capacity(10);
                std::hint::black_box(handed);
            }
            for &(id, checked) in rules {
                for _ in 0..checked {
                    scenario.passed(std::hint::black_box(id));
                }
            }
            for &(id, n) in situations {
                for _ in 0..n {
                    scenario.reached(id, 1);
                }
            }
            run.add(&scenario);
        }
        std::hint::black_box(Summary::new(&kalah::KALAH, &run));
    }
    start.elapsed().as_secs_f64() * 1e6 / (rounds * coverages.len().max(1)) as f64
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
    let cfg = config(engine, Some(Duration::ZERO));
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
    let cfg = config(engine, Some(Duration::ZERO));
    let start = Instant::now();
    for s in &suite {
        controller::run(s, &QUORIDOR, &cfg).expect("engine starts");
    }
    (suite.len(), start.elapsed().as_secs_f64())
}

/// A minimal Kalah agent in C: the first non-empty hole of its row.
const C_AGENT: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    char line[8192];
    int south = 1;
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "START;South", 11)) { south = 1; puts("MOVE;1"); fflush(stdout); }
        else if (!strncmp(line, "START;North", 11)) south = 0;
        else if (!strncmp(line, "END", 3)) return 0;
        else if (!strncmp(line, "CHANGE;", 7)) {
            char *state = strchr(line + 7, ';'), *turn = strrchr(line, ';');
            if (!state || !turn) continue;
            if (!strncmp(line + 7, "SWAP", 4)) south = !south;
            if (strncmp(turn + 1, "YOU", 3)) continue;
            int v[256], n = 0; char *p = state + 1;
            while (n < 256) { v[n++] = (int)strtol(p, &p, 10); if (*p != ',') break; p++; }
            int holes = (n - 2) / 2, off = south ? holes + 1 : 0, k = 0;
            while (k < holes - 1 && v[off + k] == 0) k++;
            printf("MOVE;%d\n", k + 1); fflush(stdout);
        }
    }
    return 0;
}
"#;

/// The physical limit: a C driver starts a C echo process and does one
/// round trip per message over pipes, `messages` times per game.
const C_ECHO_PAIR: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
int main(int argc, char **argv) {
    if (argc == 1) { /* the echo side */
        char line[8192];
        while (fgets(line, sizeof line, stdin)) { fputs(line, stdout); fflush(stdout); }
        return 0;
    }
    int games = atoi(argv[1]), messages = atoi(argv[2]);
    const char *msg = "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n";
    size_t len = strlen(msg);
    char buf[8192];
    for (int g = 0; g < games; g++) {
        int in[2], out[2];
        if (pipe(in) || pipe(out)) return 1;
        pid_t pid = fork();
        if (pid == 0) {
            dup2(in[0], 0); dup2(out[1], 1);
            close(in[0]); close(in[1]); close(out[0]); close(out[1]);
            execl(argv[0], argv[0], (char *)0);
            _exit(127);
        }
        close(in[0]); close(out[1]);
        for (int m = 0; m < messages; m++) {
            if (write(in[1], msg, len) != (ssize_t)len) return 1;
            size_t got = 0;
            while (got < len) { ssize_t r = read(out[0], buf + got, sizeof buf - got); if (r <= 0) return 1; got += (size_t)r; }
        }
        close(in[1]); close(out[0]);
        waitpid(pid, 0, 0);
    }
    return 0;
}
"#;

/// Compile C source with `cc` into a temporary directory.
fn compile_c(name: &str, source: &str) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("protocheck-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&src, source).ok()?;
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .ok()?
        .success();
    ok.then(|| exe.display().to_string())
}

/// Generated Kalah games through the controller with the default options
/// (listening windows on): games per second and CHANGE messages per game.
fn kalah_default_games(bot: &str, games: usize) -> (f64, f64) {
    let scenarios = kalah::KALAH.generate(games, 11, &Options::default());
    let mut cfg = config(bot, Some(Duration::ZERO));
    cfg.silence = None;
    let start = Instant::now();
    let mut messages = 0usize;
    for s in &scenarios {
        let run = controller::run(s, &kalah::KALAH, &cfg).expect("bot starts");
        messages += run
            .result
            .transcript
            .iter()
            .filter(|l| l.dir == protocheck::outcome::Direction::Sent)
            .count();
    }
    let secs = start.elapsed().as_secs_f64();
    (games as f64 / secs, messages as f64 / games as f64)
}

/// Whole games refereed by ManKalah.jar between two copies of `agent`.
fn mankalah_games(jar: &str, agent: &str, games: usize) -> Option<f64> {
    let start = Instant::now();
    for _ in 0..games {
        let out = Command::new("java")
            .args(["-jar", jar, agent, agent])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .ok()?;
        if !out.success() {
            return None;
        }
    }
    Some(games as f64 / start.elapsed().as_secs_f64())
}

/// Wall time and peak memory (max RSS) of one protocheck run.
fn protocheck_run(args: &[&str]) -> Option<(f64, f64)> {
    let exe = format!("{}/target/release/protocheck", env!("CARGO_MANIFEST_DIR"));
    let start = Instant::now();
    let child = Command::new(&exe)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid out-parameter for wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waiting for our own child, with valid out-pointers.
    let r = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let secs = start.elapsed().as_secs_f64();
    // Linux reports ru_maxrss in KiB (of the largest of protocheck and the
    // bots it reaped; protocheck is the largest).
    (r > 0).then(|| (secs, usage.ru_maxrss as f64 / 1024.0))
}

/// The figures of issue 8: default runs, per-game cost, memory, and
/// protocheck against ManKalah.jar and the physical limit.
fn default_run_figures() {
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "protocheck"])
        .status()
        .is_ok_and(|s| s.success());
    let (Some(kc), Some(qc), true) = (
        build_example("kalah-correct"),
        build_example("qtp-correct"),
        built,
    ) else {
        println!("default-run figures: skipped (could not build protocheck and the sample bots)");
        return;
    };
    let kalah_suite = protocheck_run(&["--game", "kalah", "--seed", "1", &kc]);
    let kalah_20 = protocheck_run(&["--game", "kalah", "--seed", "1", "--games", "20", &kc]);
    if let (Some((suite, rss)), Some((with20, _))) = (kalah_suite, kalah_20) {
        println!(
            "kalah built-in suite, defaults, 2 jobs:  {suite:>8.2} s (max RSS {rss:.1} MB; target < 2 s)"
        );
        println!(
            "each further generated game, defaults:  {:>8.0} ms (target < 100 ms)",
            (with20 - suite) * 1000.0 / 20.0
        );
    }
    if let Some((secs, rss)) = protocheck_run(&["--game", "quoridor", &qc]) {
        println!(
            "quoridor built-in suite, defaults:       {secs:>8.2} s (max RSS {rss:.1} MB; target < 1 s)"
        );
    }
    if let Some((_, rss)) = protocheck_run(&["--game", "kalah", "--jobs", "2", &kc]) {
        println!("max RSS, kalah defaults --jobs 2:        {rss:>8.1} MB (target < 30 MB)");
    }
    if let Some((_, rss)) = protocheck_run(&[
        "--game",
        "kalah",
        "--filter",
        "generated",
        "--games",
        "200",
        "--seed",
        "1",
        &kc,
    ]) {
        println!("max RSS, kalah --games 200:              {rss:>8.1} MB (target < 30 MB)");
    }
    let c_agent = compile_c("c_agent", C_AGENT);
    let (ours_rust, messages) = kalah_default_games(&kc, 50);
    println!(
        "protocheck games/s, defaults, 1 job:     {ours_rust:>8.1} vs kalah-correct ({messages:.0} messages/game)"
    );
    match &c_agent {
        Some(agent) => println!(
            "protocheck games/s, defaults, 1 job:     {:>8.1} vs the minimal C agent",
            kalah_default_games(agent, 50).0
        ),
        None => println!("protocheck vs the minimal C agent: not measured (no `cc`)"),
    }
    match std::env::var("MANKALAH_JAR") {
        Ok(jar) => {
            for (name, agent) in [
                ("kalah-correct", Some(kc.clone())),
                ("C agent", c_agent.clone()),
            ] {
                match agent.and_then(|a| mankalah_games(&jar, &a, 5)) {
                    Some(g) => {
                        println!("ManKalah.jar games/s (2 agents):         {g:>8.2} with {name}")
                    }
                    None => println!("ManKalah.jar with {name}: not measured"),
                }
            }
        }
        Err(_) => println!("ManKalah.jar: not measured (set MANKALAH_JAR to its path)"),
    }
    match compile_c("echo_pair", C_ECHO_PAIR) {
        Some(pair) => {
            let games = 200;
            let per_game = messages.round().max(1.0) as usize;
            let start = Instant::now();
            let ok = Command::new(&pair)
                .args([games.to_string(), per_game.to_string()])
                .status()
                .is_ok_and(|s| s.success());
            let secs = start.elapsed().as_secs_f64();
            if ok {
                println!(
                    "physical limit (C echo pair, spawn + {per_game} round trips): {:>8.0} games/s",
                    games as f64 / secs
                );
            }
        }
        None => println!("physical limit: not measured (no `cc`)"),
    }
}
