//! The idle proof (`transport::idle`) on bots of the runtimes courses use:
//! a JVM, GHC's threaded and non-threaded runtimes, Node, Python with
//! threads, Racket. Each bot (tests/fixtures/idle/, compiled here into a temporary
//! folder) answers each line with `ok <line>`:
//! - `echo` answers at once: waiting for its next line, it must be proved
//!   idle (which ends protocheck's listening windows early);
//! - `late` answers 300 ms later from a timer, `busy` after computing: the
//!   proof must never succeed while that answer is on its way (the safety
//!   property: a late reply is still caught).
//!
//! A runtime that is missing skips its test with a printed reason.
#![cfg(target_os = "linux")]

use protocheck::transport::idle::{IdleProbe, Progress, Sample, current_tid};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/idle")
        .join(name)
}

/// Whether `program --version` (or `-version`) runs.
fn has(program: &str, flag: &str) -> bool {
    Command::new(program)
        .arg(flag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn skip(runtime: &str) {
    eprintln!("skipped: {runtime} is not installed here, so its bots cannot be run");
}

/// Whether this kernel keeps the scheduler's counters (without them the
/// proof rests on CPU ticks and spacing, which this test does not judge).
fn has_schedstat() -> bool {
    Path::new("/proc/self/schedstat").exists()
}

/// A running bot, its probe, and the lines it wrote.
struct Bot {
    child: Child,
    probe: IdleProbe,
    lines: Receiver<String>,
}

impl Bot {
    fn spawn(mut command: Command) -> Bot {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the bot");
        let fd = child.stdin.as_ref().unwrap().as_raw_fd();
        let ino = std::fs::metadata(format!("/proc/self/fd/{fd}"))
            .unwrap()
            .ino();
        let progress = Arc::new(Progress::default());
        let (tx, lines) = channel();
        let stdout = child.stdout.take().unwrap();
        let shared = Arc::clone(&progress);
        // As protocheck's reader: sends each line on before reading again.
        std::thread::spawn(move || {
            shared.reader_tid.store(current_tid(), Ordering::SeqCst);
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        while progress.reader_tid.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        let probe = IdleProbe::new(child.id() as i32, Some(ino), progress);
        Bot {
            child,
            probe,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Two looks in a row that find the bot idle with the same scheduler
    /// counters: the proof protocheck's listening windows end on.
    fn proved_now(&self) -> bool {
        let first = self.probe.sample();
        let second = self.probe.sample();
        matches!(
            (first, second),
            (Some(Sample { idle: true, schedule: Some(a), .. }),
             Some(Sample { idle: true, schedule: Some(b), .. })) if a == b
        )
    }

    /// Whether the bot is proved idle before `limit` (a bound for a JVM
    /// starting on a loaded machine, not a speed target).
    fn proved_within(&self, limit: Duration) -> bool {
        let until = Instant::now() + limit;
        while Instant::now() < until {
            if self.proved_now() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        false
    }

    /// Send `line`, then look at the bot until its answer arrives: no look
    /// may prove it idle before that (its answer would be missed).
    fn answer_is_never_proved_missing(&mut self, line: &str) -> String {
        self.send(line);
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(answer) = self.lines.try_recv() {
                return answer;
            }
            if self.proved_now() {
                // The reader sleeps in its read, so whatever the bot wrote
                // before the looks is in the channel already.
                match self.lines.try_recv() {
                    Ok(answer) => return answer,
                    Err(_) => panic!("proved idle while its answer to {line:?} was due"),
                }
            }
            assert!(Instant::now() < until, "no answer to {line:?}");
            std::thread::sleep(Duration::from_micros(500));
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The three checks for one runtime: `command(mode)` starts its bot.
fn check_runtime(name: &str, command: impl Fn(&str) -> Command) {
    if !has_schedstat() {
        eprintln!("skipped: this kernel keeps no scheduler counters (schedstat)");
        return;
    }
    let mut echo = Bot::spawn(command("echo"));
    assert!(
        echo.proved_within(Duration::from_secs(60)),
        "{name}: a bot waiting for its input is proved idle"
    );
    for round in 0..3 {
        let line = format!("ping {round}");
        assert_eq!(
            echo.answer_is_never_proved_missing(&line),
            format!("ok {line}")
        );
        assert!(
            echo.proved_within(Duration::from_secs(60)),
            "{name}: idle again after answering {line:?}"
        );
    }
    for mode in ["late", "busy"] {
        let mut bot = Bot::spawn(command(mode));
        // Provable while waiting for input: so the check below is not
        // vacuous (a bot never proved idle would pass it trivially).
        assert!(
            bot.proved_within(Duration::from_secs(60)),
            "{name} {mode}: proved idle before its first line"
        );
        for round in 0..2 {
            let line = format!("{mode} {round}");
            assert_eq!(
                bot.answer_is_never_proved_missing(&line),
                format!("ok {line}"),
                "{name} {mode}"
            );
        }
    }
}

/// A folder for compiled bots, removed at the end of the test.
struct TempDir(PathBuf);

impl TempDir {
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!("idle-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

#[test]
fn a_jvm_bot_is_proved_idle_and_its_late_or_computed_answers_are_not_missed() {
    if !has("java", "-version") || !has("javac", "-version") {
        return skip("a JDK (java, javac)");
    }
    let dir = temp_dir("java");
    let built = Command::new("javac")
        .arg("-d")
        .arg(dir.path())
        .arg(fixture("IdleBot.java"))
        .status()
        .unwrap();
    assert!(built.success(), "javac IdleBot.java");
    check_runtime("JVM", |mode| {
        let mut c = Command::new("java");
        c.arg("-cp").arg(dir.path()).arg("IdleBot").arg(mode);
        c
    });
}

fn ghc_bot(threaded: bool) -> Option<(TempDir, PathBuf)> {
    if !has("ghc", "--version") {
        skip("GHC (ghc)");
        return None;
    }
    let dir = temp_dir("ghc");
    let exe = dir.path().join("idle_bot");
    let mut ghc = Command::new("ghc");
    ghc.arg("-O0")
        .arg("-outputdir")
        .arg(dir.path())
        .arg("-o")
        .arg(&exe)
        .arg(fixture("idle_bot.hs"))
        .stdout(Stdio::null());
    if threaded {
        ghc.arg("-threaded");
    }
    assert!(ghc.status().unwrap().success(), "ghc idle_bot.hs");
    Some((dir, exe))
}

#[test]
fn a_threaded_ghc_bot_is_proved_idle_and_its_late_or_computed_answers_are_not_missed() {
    let Some((_dir, exe)) = ghc_bot(true) else {
        return;
    };
    check_runtime("GHC -threaded", |mode| {
        let mut c = Command::new(&exe);
        c.arg(mode);
        c
    });
}

#[test]
fn a_non_threaded_ghc_bot_is_proved_idle_and_its_late_or_computed_answers_are_not_missed() {
    let Some((_dir, exe)) = ghc_bot(false) else {
        return;
    };
    check_runtime("GHC (non-threaded)", |mode| {
        let mut c = Command::new(&exe);
        c.arg(mode);
        c
    });
}

#[test]
fn a_node_bot_is_proved_idle_and_its_late_or_computed_answers_are_not_missed() {
    if !has("node", "--version") {
        return skip("Node (node)");
    }
    check_runtime("Node", |mode| {
        let mut c = Command::new("node");
        c.arg(fixture("idle_bot.js")).arg(mode);
        c
    });
}

#[test]
fn a_threaded_python_bot_is_proved_idle_and_its_late_or_computed_answers_are_not_missed() {
    if !has("python3", "--version") {
        return skip("Python (python3)");
    }
    check_runtime("Python threads", |mode| {
        let mut c = Command::new("python3");
        c.arg("-u").arg(fixture("idle_bot.py")).arg(mode);
        c
    });
}

#[test]
fn a_racket_bot_is_proved_idle_and_its_late_or_computed_answers_are_not_missed() {
    if !has("racket", "--version") {
        return skip("Racket (racket)");
    }
    check_runtime("Racket", |mode| {
        let mut c = Command::new("racket");
        c.arg(fixture("idle_bot.rkt")).arg(mode);
        c
    });
}
