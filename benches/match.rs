//! `protocheck match` against ManKalah.jar, the course's Kalah engine, with
//! the same two agents (issue 20). Not a test: nothing here asserts a time.
//! Run with `cargo bench --bench match`; set `MANKALAH_JAR` to ManKalah.jar
//! for the side-by-side figure (`PROTOCHECK_BENCH_GAMES=N`, default 20).
//! With `KALAH_AGENT_JARS=<a.jar>:<b.jar>` (two course agents, run with
//! `java -jar`) it also times a match of those two, per game, beside
//! ManKalah.jar with the same jars, and the Kalah suite for the first jar by
//! default and with `--silence 0s` (issue 32: the idle proof for a JVM).
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

    java_agents(exe, games);
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

/// Two Java agents (`KALAH_AGENT_JARS`): protocheck's match and
/// ManKalah.jar's per game, and the suite for the first agent.
fn java_agents(exe: &str, games: usize) {
    let Some(jars) = std::env::var("KALAH_AGENT_JARS").ok() else {
        println!("Java agents: skipped (set KALAH_AGENT_JARS=<a.jar>:<b.jar>)");
        return;
    };
    let jars: Vec<&str> = jars.split(':').filter(|j| !j.is_empty()).collect();
    if jars.len() != 2 {
        println!(
            "Java agents: skipped (KALAH_AGENT_JARS names {} jars, not 2)",
            jars.len()
        );
        return;
    }
    // `match` takes programs: a script per agent that becomes its JVM. Each
    // jar is copied beside its script, as a submission holds its own
    // program: the sandbox lets a bot read its own folder, not the jar's.
    let dir = std::env::temp_dir().join(format!("match-bench-{}", std::process::id()));
    let scripts: Vec<String> = jars
        .iter()
        .enumerate()
        .map(|(i, jar)| {
            use std::os::unix::fs::PermissionsExt;
            let folder = dir.join(format!("agent{i}"));
            std::fs::create_dir_all(&folder).expect("bench folder");
            std::fs::copy(jar, folder.join("agent.jar")).expect("copy the agent's jar");
            let path = folder.join("agent.sh");
            std::fs::write(
                &path,
                "#!/bin/sh\nexec java -jar \"$(dirname \"$0\")/agent.jar\"\n",
            )
            .unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            path.display().to_string()
        })
        .collect();
    let games = games.min(4);
    println!("Java agents {} vs {} · {games} games", jars[0], jars[1]);
    for extra in [
        &[][..],
        &["--jobs", "1"][..],
        &["--silence", "0s", "--jobs", "1"][..],
    ] {
        let started = Instant::now();
        let status = Command::new(exe)
            .args(["match", "--game", "kalah", &scripts[0], &scripts[1]])
            .args(["--games", &games.to_string(), "--format", "json"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run protocheck match");
        println!(
            "protocheck match {:<24} {:>9.0} ms per game  (exit {})",
            extra.join(" "),
            ms(started.elapsed() / games as u32),
            status.code().unwrap_or(-1)
        );
    }
    if let Some(mankalah) = std::env::var_os("MANKALAH_JAR") {
        let started = Instant::now();
        // protocheck's match swaps the seats every game; so does this loop.
        for game in 0..games {
            let (first, second) = if game % 2 == 0 { (0, 1) } else { (1, 0) };
            let _ = Command::new("java")
                .arg("-jar")
                .arg(&mankalah)
                .args([
                    format!("java -jar {}", jars[first]),
                    format!("java -jar {}", jars[second]),
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        println!(
            "ManKalah.jar, same agents:                {:>9.0} ms per game",
            ms(started.elapsed() / games as u32)
        );
    }
    for extra in [&[][..], &["--silence", "0s"][..]] {
        let started = Instant::now();
        let status = Command::new(exe)
            .args([
                "--game",
                "kalah",
                "--bot-cmd",
                &format!("java -jar {}", jars[0]),
            ])
            .args(["--format", "json"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run protocheck");
        println!(
            "Kalah suite, {} {:<14} {:>7.1} s  (exit {})",
            jars[0],
            extra.join(" "),
            started.elapsed().as_secs_f64(),
            status.code().unwrap_or(-1)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
