//! Helpers for the integration tests: run the real `protocheck` binary
//! against the sample bots (the examples of the `protocheck-sample-bots`
//! package in bots/, built by `cargo test`).
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Path of a sample bot (`bots/examples/<name>.rs`). The plain `cargo test`
/// builds every bot; a test binary run alone (`cargo test --test
/// integration …`) builds them here the first time one is missing.
pub fn bot(name: &str) -> String {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_protocheck"));
    let path = exe.parent().unwrap().join("examples").join(name);
    if !path.exists() {
        build_sample_bots();
    }
    assert!(
        path.exists(),
        "sample bot {} is not built (bots/examples/{name}.rs; `cargo test --no-run -p protocheck-sample-bots` builds them all)",
        path.display()
    );
    path.display().to_string()
}

/// Builds every sample bot, once per test process, as the plain `cargo
/// test` does (`cargo test --no-run` builds examples with the test profile,
/// so what that build left is reused, not built again with another
/// profile), into target/<profile>/examples/.
fn build_sample_bots() {
    static BUILT: Mutex<bool> = Mutex::new(false);
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if *built {
        return;
    }
    *built = true;
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_protocheck"));
    let release = exe.parent().and_then(|d| d.file_name()) == Some("release".as_ref());
    let mut cargo = std::process::Command::new(env!("CARGO"));
    cargo.current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "test",
        "--no-run",
        "--quiet",
        "-p",
        "protocheck-sample-bots",
    ]);
    if release {
        cargo.arg("--release");
    }
    let status = cargo.status().expect("cargo runs");
    assert!(
        status.success(),
        "building the sample bots failed: {status}"
    );
}

/// The tests of tests/load/ share the CPUs through this lock.
static CPUS: RwLock<()> = RwLock::new(());

/// Held by a test while it starts CPU hogs ([`CpuHogs`]) or needs the CPUs
/// free of other tests: no other test of its binary runs meanwhile (those
/// of tests/load/ hold [`beside_no_cpu_hogs`]), so two tests' hogs never
/// overlap and each test's load is the one it chose (overlapping hogs once
/// made tests/load/pace.rs flaky).
pub fn cpu_hogs_alone() -> RwLockWriteGuard<'static, ()> {
    CPUS.write().unwrap_or_else(|e| e.into_inner())
}

/// Held by a timing-sensitive test of tests/load/ that starts no hogs: it
/// runs beside other such tests, never beside a test's CPU hogs.
pub fn beside_no_cpu_hogs() -> RwLockReadGuard<'static, ()> {
    CPUS.read().unwrap_or_else(|e| e.into_inner())
}

/// A fixture file under tests/fixtures.
pub fn fixture(rel: &str) -> String {
    format!("{}/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// What a JSON-format run produced.
pub struct Outcome {
    pub code: i32,
    pub report: Value,
    pub stderr: String,
}

impl Outcome {
    /// Every rule id reported, in order, with duplicates.
    pub fn rules(&self) -> Vec<String> {
        self.report["scenarios"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|s| s["violations"].as_array().cloned().unwrap_or_default())
            .map(|v| v["rule"].as_str().unwrap_or("").to_string())
            .collect()
    }

    pub fn has_rule(&self, id: &str) -> bool {
        self.rules().iter().any(|r| r == id)
    }

    pub fn messages(&self) -> String {
        self.report["scenarios"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|s| s["violations"].as_array().cloned().unwrap_or_default())
            .map(|v| v["message"].as_str().unwrap_or("").to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub fn statuses(&self) -> Vec<String> {
        self.report["scenarios"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| s["status"].as_str().unwrap_or("").to_string())
            .collect()
    }
}

/// Run protocheck with `args` plus `--format json`, with `envs` in its
/// environment and passed on to the bots (`--pass-env`: a sample bot's
/// settings, the marker by which a test finds a bot process that outlived
/// the run).
pub fn run_json(args: &[&str], envs: &[(&str, &str)]) -> Outcome {
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    cmd.args(with_bot_variables(args, envs))
        .args(["--format", "json", "--color", "never"]);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.timeout(std::time::Duration::from_secs(240));
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let report = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    Outcome {
        code: out.status.code().unwrap_or(-1),
        report,
        stderr: String::from_utf8_lossy(&out.stderr).to_string(),
    }
}

/// A marker unique to one test, put into the bot's environment.
pub fn marker(test: &str) -> String {
    format!("{test}-{}-{}", std::process::id(), fastrand::u64(..))
}

/// Processes (not zombies) whose environment carries `marker`.
pub fn live_processes_with(marker: &str) -> Vec<u32> {
    let needle = format!("PROTOCHECK_TEST_MARKER={marker}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if !env.split(|&b| b == 0).any(|kv| kv == needle.as_bytes()) {
            continue;
        }
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // Field 3 is the state; a zombie ('Z') is no longer running.
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("");
        if state != "Z" && state != "X" {
            found.push(pid);
        }
    }
    found
}

/// The findings of a JSON report, one line each, for assertion messages.
pub fn findings(report: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    for s in report["scenarios"].as_array().into_iter().flatten() {
        for v in s["violations"].as_array().into_iter().flatten() {
            lines.push(format!(
                "{} [{}] {}: {}",
                s["name"].as_str().unwrap_or("?"),
                v["severity"].as_str().unwrap_or("?"),
                v["rule"].as_str().unwrap_or("?"),
                v["message"].as_str().unwrap_or("")
            ));
        }
    }
    lines
}

/// A `--format json` run as (exit code, report or `Null`, stderr).
pub fn json_outcome(out: &std::process::Output) -> (i32, Value, String) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// A fresh directory under cargo's per-test temporary directory.
pub fn tempdir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "protocheck-test-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every failing scenario of `out` (a run with `--save-failures`) was saved,
/// lints clean, and replays against `bot` to the same findings and the same
/// exchange, message for message. Returns how many were replayed.
pub fn assert_saved_failures_replay(game: &str, bot: &str, out: &Outcome) -> usize {
    let findings = |s: &Value| -> Vec<String> {
        s["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| format!("{} {}", v["rule"], v["message"]))
            .collect()
    };
    let messages = |s: &Value| -> Vec<String> {
        s["transcript"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["dir"] != "note")
            .map(|l| l["text"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let mut replayed = 0;
    for s in out.report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "failed")
    {
        let saved = s["saved_to"].as_str().expect("saved").to_string();
        Command::cargo_bin("protocheck")
            .unwrap()
            .args(["lint", "--game", game, &saved])
            .assert()
            .success();
        let again = run_json(&["--game", game, "--scenarios", &saved, bot], &[]);
        assert_eq!(again.code, 1, "{saved}");
        let first = &again.report["scenarios"][0];
        assert_eq!(findings(first), findings(s), "{saved}");
        assert_eq!(messages(first), messages(s), "{saved}");
        replayed += 1;
    }
    replayed
}

/// A human report made stable for a snapshot: the bot's path, the
/// repository path, timings (with the padding that aligns them in the
/// transcript) and the version replaced by placeholders.
pub fn human_report_for_snapshot(stdout: &[u8], bot: &str) -> String {
    let text = String::from_utf8_lossy(stdout)
        .replace(bot, "<bot>")
        .replace(env!("CARGO_MANIFEST_DIR"), "<repo>");
    let text = regex::Regex::new(r" +\d+ms\b")
        .unwrap()
        .replace_all(&text, " <t>ms");
    let text = regex::Regex::new(r"\d+ ms\b")
        .unwrap()
        .replace_all(&text, "<t> ms")
        .replace(protocheck::build_info::LONG, "<version>")
        .replace(env!("CARGO_PKG_VERSION"), "<version>");
    canonical_sandbox(&text)
}

/// Threads that keep every core busy until dropped: a machine loaded as a
/// course's grading machine or a shared CI runner is. A test that starts
/// them holds [`cpu_hogs_alone`] first, so no two sets run side by side.
pub struct CpuHogs {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl CpuHogs {
    /// `per_core` busy threads for each core.
    pub fn start(per_core: usize) -> CpuHogs {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        CpuHogs::spawn(cores * per_core, None)
    }

    /// `count` busy threads, all on CPU `cpu` (Linux; elsewhere unpinned):
    /// with a sample bot started with `KALAH_BOT_STARVED_ON_CPU` set to the
    /// same CPU, the machine keeps that bot waiting for a CPU at every
    /// wake-up, as a heavily loaded grading machine does, without loading
    /// the rest of the machine.
    pub fn pinned(cpu: usize, count: usize) -> CpuHogs {
        CpuHogs::spawn(count, Some(cpu))
    }

    fn spawn(count: usize, cpu: Option<usize>) -> CpuHogs {
        use std::sync::atomic::Ordering;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..count)
            .map(|i| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    if let Some(cpu) = cpu {
                        pin_this_thread(cpu);
                    }
                    let mut x = i as u64 + 1;
                    while !stop.load(Ordering::Relaxed) {
                        for _ in 0..100_000 {
                            x = x.rotate_left(7) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        }
                        std::hint::black_box(x);
                    }
                })
            })
            .collect();
        CpuHogs { stop, threads }
    }
}

#[cfg(target_os = "linux")]
fn pin_this_thread(cpu: usize) {
    // SAFETY: a system call on the calling thread with an initialised set.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        assert_eq!(
            libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set),
            0
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_this_thread(_cpu: usize) {}

impl Drop for CpuHogs {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Whether this machine tells how long a process waited for a CPU (Linux
/// with scheduler statistics): without it, replies are judged by the wall
/// clock, and verdicts under load are not promised.
pub fn measures_cpu_wait() -> bool {
    std::path::Path::new("/proc/self/schedstat").exists()
}

/// Run protocheck with exactly `args` (a subcommand's own `--format json`
/// included) as (exit code, JSON stdout or `Null`, stderr), with `envs` in
/// its environment and passed on to the bots as [`run_json`] does.
pub fn protocheck_json(args: &[&str], envs: &[(&str, &str)]) -> (i32, Value, String) {
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    cmd.args(with_bot_variables(args, envs));
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.timeout(std::time::Duration::from_secs(240));
    json_outcome(&cmd.output().unwrap())
}

/// The rule ids of the failing findings a single `--format json` run of
/// `bot` gets, each once.
pub fn single_run_failures(game: &str, bot: &str) -> Vec<String> {
    let out = run_json(&[bot, "--game", game], &[]);
    let mut rules: Vec<String> = out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["violations"].as_array().cloned().unwrap_or_default())
        .filter(|v| v["severity"] == "fail")
        .map(|v| v["rule"].as_str().unwrap_or("").to_string())
        .collect();
    rules.sort();
    rules.dedup();
    rules
}

/// A match game's score for `side` (Kalah: that side's store), from the
/// match JSON report.
pub fn side_score(game: &Value, side: &str) -> u32 {
    game["score"]
        .as_array()
        .expect("a score list")
        .iter()
        .find(|s| s["side"] == side)
        .and_then(|s| s["value"].as_u64())
        .expect("a score per side") as u32
}

/// `args` with `--pass-env NAME` for each of `envs`: a bot gets only a
/// fixed environment (docs/environment.md), so a variable a test sets for
/// the bots is passed on by name. The flags go where the command takes run
/// options: before a single run's `--` (the bot's own arguments follow it),
/// after `grade`'s `--` (each bot's run options follow it), else at the end.
pub fn with_bot_variables(args: &[&str], envs: &[(&str, &str)]) -> Vec<String> {
    let mut words: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let flags = envs.iter().map(|(name, _)| format!("--pass-env={name}"));
    match words.iter().position(|w| w == "--") {
        Some(at) if words[0] != "grade" => {
            words.splice(at..at, flags);
        }
        None if words.first().is_some_and(|w| w == "grade") => {
            words.push("--".into());
            words.extend(flags);
        }
        _ => words.extend(flags),
    }
    words
}

/// A protocheck command with a fixed environment of its own: `PATH` and
/// `HOME` from the test's, nothing else (cargo's variables, a CI runner's,
/// `PYTHONUNBUFFERED`, …). The bots get the same fixed environment
/// whoever runs the tests, and a pinned report reads the same.
pub trait FixedEnvironment {
    fn with_fixed_environment(&mut self) -> &mut Self;
    /// The former name of [`FixedEnvironment::with_fixed_environment`]:
    /// the environment it leaves has no I/O switch either.
    fn without_io_switches(&mut self) -> &mut Self {
        self.with_fixed_environment()
    }
}

impl FixedEnvironment for Command {
    fn with_fixed_environment(&mut self) -> &mut Self {
        self.env_clear();
        for name in ["PATH", "HOME"] {
            if let Some(value) = std::env::var_os(name) {
                self.env(name, value);
            }
        }
        self
    }
}

/// Reports made stable for a snapshot across kernels: the snapshots pin the
/// sandbox of this machine and CI (Landlock ABI 7 and seccomp: every
/// layer), and on a kernel with other layers the ones it has are written as
/// those, so that a snapshot pins where the report says the sandbox, not
/// what a kernel offers (the tests of `sandbox_reports.rs` check the
/// machine's own).
pub fn canonical_sandbox(text: &str) -> String {
    use protocheck::report::sandbox_value;
    use protocheck::transport::sandbox::{Layers, SandboxOptions, settle};
    let here = settle(&SandboxOptions::default()).expect("--sandbox auto always runs");
    let every = Layers {
        landlock: Some(7),
        files: true,
        tcp: true,
        signals: true,
        scheduling: true,
        none_because: None,
    };
    if here == every {
        return text.to_string();
    }
    // As a report writes it (fields in order) and as a test re-printing a
    // parsed report does (keys sorted), both one level deep.
    let renderings = |l: &Layers| {
        [
            serde_json::to_string_pretty(l).unwrap(),
            serde_json::to_string_pretty(&serde_json::to_value(l).unwrap()).unwrap(),
        ]
        .map(|json| json.replace('\n', "\n  "))
    };
    let mut text = text.to_string();
    for (from, to) in renderings(&here).iter().zip(renderings(&every).iter()) {
        text = text.replace(from, to);
    }
    text.replace(&sandbox_value(&here), &sandbox_value(&every))
}
