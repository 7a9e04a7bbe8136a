//! Shared part of the hostile sample bots `bots/examples/attack-*.rs` (issue 27).
//!
//! Each of them is `kalah-correct` (the shared Kalah bot of
//! `bots/src/kalah/`, with no flaw) that first tries one attack on the
//! class it is graded with, and writes what happened to stderr, one line per
//! attempt:
//!
//! ```text
//! attack read-sibling: refused: ../victim/solution.txt: Permission denied (os error 13)
//! attack read-sibling: succeeded: ../victim/solution.txt: 41 bytes: "victim's solution: ..."
//! attack signal-classmate: no target: no classmate's bot found within 1s
//! attack replace-protocheck: failed: /proc/123/exe: Text file busy (os error 26)
//! ```
//!
//! `refused` is an error that says the access was not allowed (EACCES or
//! EPERM), `failed` any other error, `no target` that there was nothing to
//! attack. Each line is also appended to `attack.log` in the bot's own
//! folder (which it may write), so that a tournament, whose reports keep no
//! stderr, shows what happened too. The attack runs before the bot reads its first line, and an
//! attack that needs another process waits for it at most [`PATIENCE`], so
//! the bot still answers well within the start-up timeout (10 s).
//!
//! The class layout the bots assume is `protocheck grade`'s and
//! `protocheck tournament`'s: every bot runs in its own folder, and the
//! classmates' folders are its siblings (`submissions/<id>/`). Classmates
//! are found as a hostile student would find them: in the command lines of
//! the processes on the machine (`/proc/<pid>/cmdline`, which every user may
//! read), which name the bots' absolute paths (`/…/submissions/<id>/bot`;
//! only paths under this bot's own submissions folder count, so two classes
//! graded at once never attack each other).

#![allow(dead_code)]

use crate::kalah;

use std::ffi::OsString;
use std::fmt::Display;
use std::io;
use std::os::unix::ffi::OsStringExt;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

/// How long an attack waits for a process to attack.
pub const PATIENCE: Duration = Duration::from_secs(1);

/// Runs the attack, then plays Kalah as `kalah-correct` until the game ends.
pub fn run(name: &'static str, attack: fn(&Attack)) -> ! {
    attack(&Attack { name });
    kalah::run(kalah::Flaw::None)
}

/// One attack: writes its attempts' results to stderr.
pub struct Attack {
    name: &'static str,
}

impl Attack {
    /// Writes one line to stderr and to `attack.log`.
    fn line(&self, text: String) {
        use std::io::Write;
        let line = format!("attack {}: {text}", self.name);
        eprintln!("{line}");
        if let Ok(mut log) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open("attack.log")
        {
            let _ = writeln!(log, "{line}");
        }
    }

    pub fn succeeded(&self, what: &str, detail: impl Display) {
        self.line(format!("succeeded: {what}: {detail}"));
    }

    pub fn no_target(&self, why: impl Display) {
        self.line(format!("no target: {why}"));
    }

    /// An error: `refused` when it is the system saying no, else `failed`.
    pub fn error(&self, what: &str, error: &io::Error) {
        let word = if is_refusal(error) {
            "refused"
        } else {
            "failed"
        };
        self.line(format!("{word}: {what}: {error}"));
    }

    /// Reports a result: `detail` describes a success.
    pub fn outcome<T>(&self, what: &str, result: io::Result<T>, detail: impl FnOnce(T) -> String) {
        match result {
            Ok(value) => self.succeeded(what, detail(value)),
            Err(e) => self.error(what, &e),
        }
    }
}

/// EACCES or EPERM: the kernel refused the access (Landlock answers
/// EACCES for files and TCP, EPERM for signals, ptrace and scoped sockets;
/// seccomp answers EPERM).
pub fn is_refusal(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(libc::EACCES) | Some(libc::EPERM))
}

/// The result of a libc call that returns -1 and sets errno.
pub fn check(ret: i64) -> io::Result<i64> {
    if ret == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

/// The bot's own folder (it runs in it).
pub fn own_folder() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

/// The bot's id: the name of its folder.
pub fn own_id() -> String {
    name_of(&own_folder())
}

/// The folder holding every submission (the parent of the bot's folder).
pub fn submissions() -> PathBuf {
    own_folder()
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The class folder: the parent of the submissions' folder, where the
/// instructor's folder and grade's output lie in the tests' layout.
pub fn class_folder() -> PathBuf {
    submissions()
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The name of a meeting place of this class's colluders:
/// `protocheck-collusion-<hash of the submissions folder>`, so that two
/// classes run at once (the tests run a class with the sandbox and one
/// without) never meet.
pub fn meeting_place() -> String {
    // FNV-1a: stable across runs and machines.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in submissions().to_string_lossy().bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("protocheck-collusion-{hash:016x}")
}

/// Every process's pid.
pub fn pids() -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut pids: Vec<i32> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect();
    pids.sort_unstable();
    pids
}

/// A process's command line, word by word.
pub fn cmdline(pid: i32) -> Vec<String> {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .unwrap_or_default()
        .split(|b| *b == 0)
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect()
}

/// A process's parent.
pub fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name in parentheses may hold spaces: the fields start after ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    rest.split(' ').nth(1)?.parse().ok()
}

/// The classmate a word of a command line names: a path
/// `<submissions>/<id>/…` with another id than `own`. Shell words hold
/// paths too (`--bot-cmd '/…/bot'`).
fn classmate_in(word: &str, submissions: &Path, own: &str) -> Option<String> {
    word.split_whitespace().find_map(|token| {
        let path = Path::new(token.trim_matches(|c| c == '\'' || c == '"'));
        let rest = path.strip_prefix(submissions).ok()?;
        let id = match rest.components().next()? {
            Component::Normal(n) => n.to_string_lossy().into_owned(),
            _ => return None,
        };
        (id != own && rest.components().count() > 1).then_some(id)
    })
}

/// The classmates named on the machine's command lines, sorted.
pub fn classmates() -> Vec<String> {
    let (submissions, own) = (submissions(), own_id());
    let mut found: Vec<String> = pids()
        .into_iter()
        .flat_map(cmdline)
        .filter_map(|w| classmate_in(&w, &submissions, &own))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The classmates named on the machine's command lines, once there are
/// any (within [`PATIENCE`]); empty when none shows.
pub fn some_classmates() -> Vec<String> {
    wait_for(|| Some(classmates()).filter(|c| !c.is_empty())).unwrap_or_default()
}

/// The classmates' bot processes running now: a process whose program
/// lies in a classmate's folder, or (a program started by a relative path)
/// whose parent's command line names one and which is not a protocheck.
pub fn classmate_bots() -> Vec<(i32, String)> {
    let (submissions, own) = (submissions(), own_id());
    let me = std::process::id() as i32;
    pids()
        .into_iter()
        .filter(|p| *p != me)
        .filter_map(|pid| {
            let words = cmdline(pid);
            let program = words.first()?;
            if let Some(id) = classmate_in(program, &submissions, &own) {
                return Some((pid, id));
            }
            if program.starts_with('/') || program.contains("protocheck") {
                return None;
            }
            let parent = parent_of(pid)?;
            let id = cmdline(parent)
                .iter()
                .find_map(|w| classmate_in(w, &submissions, &own))?;
            Some((pid, id))
        })
        .collect()
}

/// A classmate's bot process; waits up to [`PATIENCE`] for one.
pub fn classmate_bot() -> Option<(i32, String)> {
    wait_for(|| classmate_bots().into_iter().next())
}

/// A protocheck guardian (`protocheck __protocheck-guardian …`).
pub fn guardian() -> Option<i32> {
    // Its own run's guardian only (the run tag is the part of
    // PROTOCHECK_BOT before the dot): a test must never reach the guardian
    // of another run on the machine, even with --sandbox off.
    let tag = std::env::var("PROTOCHECK_BOT").ok()?;
    let run = tag.split('.').next()?.to_string();
    wait_for(|| {
        pids().into_iter().find(|pid| {
            let words = cmdline(*pid);
            words.iter().any(|w| w == "__protocheck-guardian") && words.contains(&run)
        })
    })
}

/// Polls `find` every 10 ms for up to [`PATIENCE`].
pub fn wait_for<T>(mut find: impl FnMut() -> Option<T>) -> Option<T> {
    let until = Instant::now() + PATIENCE;
    loop {
        if let Some(found) = find() {
            return Some(found);
        }
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The protocheck that runs this bot: its parent.
pub fn parent() -> i32 {
    // SAFETY: getppid has no preconditions.
    unsafe { libc::getppid() }
}

/// The first bytes of `data`, quoted, for a success line.
pub fn preview(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(&data[..data.len().min(40)]).into_owned();
    format!("{} bytes: {:?}", data.len(), text)
}

/// Reads a file and reports it.
pub fn try_read(attack: &Attack, path: &Path) {
    attack.outcome(&path.display().to_string(), std::fs::read(path), |d| {
        preview(&d)
    });
}

/// Creates (or appends to) a file and reports it.
pub fn try_write(attack: &Attack, path: &Path, text: &str) {
    use std::io::Write;
    let result = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    attack.outcome(&path.display().to_string(), result, |()| {
        format!("wrote {} bytes", text.len())
    });
}

/// Sends `signal` to `pid` and reports it. A SIGSTOP is followed by a
/// SIGCONT 50 ms later: enough to show the stop worked, short enough that
/// a run without the sandbox goes on.
/// Signals `pid` and logs the outcome; whether the process was there to
/// receive it (`ESRCH`: it ended after it was found, which proves nothing
/// about a sandbox either way).
pub fn try_signal(attack: &Attack, what: &str, pid: i32, signal: i32) -> bool {
    // SAFETY: kill has no memory-safety preconditions.
    let result = check(unsafe { libc::kill(pid, signal) } as i64);
    let was_there = !matches!(&result, Err(e) if e.raw_os_error() == Some(libc::ESRCH));
    if result.is_ok() && signal == libc::SIGSTOP {
        std::thread::sleep(Duration::from_millis(50));
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGCONT) };
    }
    let name = if signal == libc::SIGSTOP {
        "SIGSTOP"
    } else if signal == libc::SIGKILL {
        "SIGKILL"
    } else {
        "signal"
    };
    attack.outcome(&format!("{name} to {what} (pid {pid})"), result, |_| {
        "delivered".into()
    });
    was_there
}

/// An OS string from bytes (for paths read from /proc).
pub fn os(bytes: Vec<u8>) -> OsString {
    OsString::from_vec(bytes)
}
