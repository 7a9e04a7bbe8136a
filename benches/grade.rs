//! `protocheck grade` against the sum of single runs (issue 20). Not a
//! test: nothing here asserts a time. Run with `cargo bench --bench grade`
//! (`PROTOCHECK_BENCH_BOTS=N` for another class size, default 100).
//!
//! * N copies (symlinks) of the correct Kalah sample bot, the built-in
//!   suite: every bot run alone (`protocheck --jobs 1`, one after another),
//!   then `protocheck grade --jobs J` over all of them (J: the CPUs), side
//!   by side in one run; the figure is grade's wall time against
//!   (sum of single runs ÷ J), the target at most 1.2×.
//! * Peak memory: grade's own peak resident set (VmHWM from /proc, read
//!   while it runs: protocheck grade alone, children not included), and
//!   the largest single process of its tree (wait4's ru_maxrss of grade:
//!   grade, one bot's protocheck or one bot).
//! * Fewer bots than jobs (issue 32.3): copies of the slow Kalah sample bot
//!   (`PROTOCHECK_BENCH_SLOW_BOTS`, default one; 200 ms before each reply), the
//!   built-in suite narrowed to its openings: `grade --jobs 1` (each bot's
//!   scenarios one at a time, as before) against `grade --jobs J`, whose
//!   spare jobs run a bot's scenarios side by side; and that both give the
//!   same grades. `PROTOCHECK_BENCH_BOTS=0` runs this part alone.

mod common;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let bots: usize = std::env::var("PROTOCHECK_BENCH_BOTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(bot) = common::build_example("kalah-correct") else {
        println!("kalah-correct: skipped (could not build it)");
        return;
    };
    let exe = env!("CARGO_BIN_EXE_protocheck");
    fewer_bots_than_jobs(exe, jobs);
    if bots == 0 {
        return;
    }
    let class = std::env::temp_dir().join(format!("protocheck-bench-grade-{}", std::process::id()));
    for i in 0..bots {
        let dir = class.join("submissions").join(format!("bot{i:03}"));
        std::fs::create_dir_all(&dir).expect("class folder");
        std::os::unix::fs::symlink(&bot, dir.join("bot")).expect("symlink the bot");
    }
    println!("protocheck grade figures · {bots} bots · {jobs} CPUs · kalah built-in suite");

    let started = Instant::now();
    let mut failed = 0;
    for i in 0..bots {
        let bot = class
            .join("submissions")
            .join(format!("bot{i:03}"))
            .join("bot");
        let status = Command::new(exe)
            .args([
                "--no-config",
                "--game",
                "kalah",
                "--jobs",
                "1",
                "--format",
                "json",
                "--output",
                "/dev/null",
            ])
            .arg(&bot)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run protocheck");
        failed += usize::from(!status.success());
    }
    let single = started.elapsed();
    println!(
        "single runs, one after another:   {:>8.1} s  ({failed} not passing) ÷ {jobs} = {:.1} s",
        single.as_secs_f64(),
        single.as_secs_f64() / jobs as f64
    );

    let started = Instant::now();
    // Reaped by `reaped` (wait4), which also tells the peak memory.
    #[allow(clippy::zombie_processes)]
    let mut grade_process = Command::new(exe)
        .current_dir(&class)
        .args([
            "grade",
            "--force",
            "--jobs",
            &jobs.to_string(),
            "--out",
            "grades",
            "submissions/*/bot",
            "--",
            "--game",
            "kalah",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run protocheck grade");
    let mut said = grade_process.stderr.take().expect("grade's stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut said, &mut text);
        text
    });
    let pid = grade_process.id() as i32;
    let mut own_peak_kib = 0;
    let (code, tree_peak_kib) = loop {
        if let Some(ended) = reaped(pid) {
            break ended;
        }
        own_peak_kib = own_peak_kib.max(vm_hwm_kib(pid).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(100));
    };
    let grade = started.elapsed();
    let said = reader.join().unwrap_or_default();
    if code != 0 {
        println!(
            "grade failed (wait status {code}): {}",
            said.lines().last().unwrap_or("")
        );
    }
    let ratio = grade.as_secs_f64() / (single.as_secs_f64() / jobs as f64);
    println!(
        "grade --jobs {jobs}:                  {:>8.1} s  = {ratio:.2}× (sum of single runs ÷ jobs; target ≤ 1.2×)",
        grade.as_secs_f64()
    );
    println!(
        "peak memory: protocheck grade {:.1} MB (children not included; target < 100 MB), largest single process of grade's tree (a bot's protocheck or a bot) {:.1} MB",
        own_peak_kib as f64 / 1024.0,
        tree_peak_kib as f64 / 1024.0
    );
    let passed = std::fs::read_to_string(class.join("grades").join("grades.csv"))
        .map(|csv| {
            csv.lines()
                .skip(1)
                .filter(|l| l.contains(",passed,"))
                .count()
        })
        .unwrap_or(0);
    println!("grades.csv: {passed} of {bots} bots passed");
    let _ = std::fs::remove_dir_all(Path::new(&class));
}

/// A few slow bots, fewer than the jobs: grade's spare jobs go to each
/// bot's scenarios. Wall time of `grade --jobs 1` against `--jobs J`.
fn fewer_bots_than_jobs(exe: &str, jobs: usize) {
    let bots: usize = std::env::var("PROTOCHECK_BENCH_SLOW_BOTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let Some(bot) = common::build_example("kalah-slow") else {
        println!("kalah-slow: skipped (could not build it)");
        return;
    };
    let class =
        std::env::temp_dir().join(format!("protocheck-bench-grade-few-{}", std::process::id()));
    for i in 0..bots {
        let dir = class.join("submissions").join(format!("slow{i}"));
        std::fs::create_dir_all(&dir).expect("class folder");
        std::os::unix::fs::symlink(&bot, dir.join("bot")).expect("symlink the bot");
    }
    let grade = |j: usize, out: &str| {
        let started = Instant::now();
        let status = Command::new(exe)
            .current_dir(&class)
            .env("KALAH_BOT_DELAY_MS", "200")
            .args(["grade", "--force", "--jobs", &j.to_string(), "--out", out])
            .args([
                "submissions/*/bot",
                "--",
                "--game",
                "kalah",
                "--filter",
                "*opening*",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run protocheck grade");
        if !status.success() {
            println!("grade --jobs {j} failed: {status}");
        }
        started.elapsed().as_secs_f64()
    };
    let alone = grade(1, "one");
    let shared = grade(jobs, "shared");
    // The grades without the seconds column: the same whatever the jobs.
    let table = |out: &str| {
        std::fs::read_to_string(class.join(out).join("grades.csv"))
            .unwrap_or_default()
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                if f.len() > 7 {
                    f.remove(7);
                }
                f.join(",")
            })
            .collect::<Vec<_>>()
    };
    let same = table("one") == table("shared") && !table("one").is_empty();
    println!(
        "{bots} slow bot(s), openings: grade --jobs 1 {alone:>6.1} s, --jobs {jobs} {shared:>6.1} s = {:.2}× faster (ideal {:.0}×); grades {}",
        alone / shared,
        (jobs as f64 / bots as f64).max(1.0),
        if same { "the same" } else { "DIFFER" }
    );
    let _ = std::fs::remove_dir_all(&class);
}

/// The peak resident set of a live process, in KiB (Linux).
#[cfg(target_os = "linux")]
fn vm_hwm_kib(pid: i32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(not(target_os = "linux"))]
fn vm_hwm_kib(_pid: i32) -> Option<u64> {
    None
}

/// Once `pid` has ended: its wait status and the largest resident set of
/// it and its waited-for descendants (wait4's ru_maxrss), in KiB.
fn reaped(pid: i32) -> Option<(i32, u64)> {
    // SAFETY: wait4 on our own child writes into the two locals it is given.
    unsafe {
        let mut status = 0;
        let mut usage: libc::rusage = std::mem::zeroed();
        let got = libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage);
        (got == pid).then_some((status, usage.ru_maxrss as u64))
    }
}
