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
//!   the largest single process of its tree (wait4's ru_maxrss: grade or
//!   one bot's protocheck or one bot).

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
    let mut child = Command::new(exe)
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
    let mut said = child.stderr.take().expect("grade's stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut said, &mut text);
        text
    });
    let pid = child.id() as i32;
    let mut own_peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        own_peak_kib = own_peak_kib.max(vm_hwm_kib(pid).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(100));
    };
    let said = reader.join().unwrap_or_default();
    if !status.success() {
        println!(
            "grade failed ({status}): {}",
            said.lines().last().unwrap_or("")
        );
    }
    let grade = started.elapsed();
    let tree_peak_kib = largest_child_rss_kib();
    let ratio = grade.as_secs_f64() / (single.as_secs_f64() / jobs as f64);
    println!(
        "grade --jobs {jobs}:                  {:>8.1} s  = {ratio:.2}× (sum of single runs ÷ jobs; target ≤ 1.2×)",
        grade.as_secs_f64()
    );
    println!(
        "peak memory: protocheck grade {:.1} MB (children not included; target < 100 MB), largest single process of the bench's runs {:.1} MB",
        own_peak_kib as f64 / 1024.0,
        tree_peak_kib as f64 / 1024.0
    );
    let passed = std::fs::read_to_string(class.join("grades").join("grades.csv"))
        .map(|csv| csv.lines().filter(|l| l.contains(",passed,")).count())
        .unwrap_or(0);
    println!("grades.csv: {passed} of {bots} bots passed");
    let _ = std::fs::remove_dir_all(Path::new(&class));
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

/// The largest resident set of any waited-for descendant, in KiB.
fn largest_child_rss_kib() -> u64 {
    // SAFETY: getrusage writes into the zeroed struct it is given.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage.ru_maxrss as u64
    }
}
