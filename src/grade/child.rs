//! One bot graded by a protocheck of its own: a child process, in a
//! process group of its own, run in the bot's working folder. That
//! protocheck applies the limits and timeouts, kills its bot's processes
//! and survives a hostile bot exactly as a single run does; a bot that
//! hangs, floods or forks harms only its own child.

use super::roster::Entry;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A bot's protocheck, running.
pub struct Running {
    pub index: usize,
    pub child: Child,
    pub started: Instant,
    /// How many of grade's jobs it has: its scenarios at once.
    pub jobs: usize,
    /// When grade stopped it for overrunning its `--bot-time-limit`.
    pub overran: Option<Instant>,
}

/// The reports a bot's one run writes into its folder.
pub const REPORTS: [&str; 6] = [
    "report.json",
    "report.txt",
    "report.html",
    "report.xml",
    "gradescope.json",
    "prairielearn.json",
];

/// Where a bot's files go: `<out>/<id>/`.
pub fn folder(out: &Path, id: &str) -> PathBuf {
    out.join(id)
}

/// The words after the program: the run options, then grade's own.
pub fn arguments(
    entry: &Entry,
    run_options: &[String],
    out: &Path,
    jobs: usize,
    budget: Option<Duration>,
) -> Vec<String> {
    let mut args = run_options.to_vec();
    if let Some(limit) = budget {
        // Its protocheck keeps the budget itself: no scenario starts after
        // it, a running one is stopped, the rest are listed as not run.
        args.extend([
            "--bot-time-limit".into(),
            format!("{}ms", limit.as_millis().max(1)),
        ]);
    }
    let dir = folder(out, &entry.id);
    let report = |kind: &str, file: &str| format!("{kind}={}", dir.join(file).display());
    args.extend([
        "--jobs".into(),
        jobs.max(1).to_string(),
        // Every report from one run: the three grade reads or shows (the
        // HTML page with the board), and the ones a course hands on (CI,
        // Gradescope, PrairieLearn), with the policy's scores.
        "--report".into(),
        report("json", "report.json"),
        "--report".into(),
        report("human", "report.txt"),
        "--report".into(),
        report("html", "report.html"),
        "--report".into(),
        report("junit", "report.xml"),
        "--report".into(),
        report("gradescope", "gradescope.json"),
        "--report".into(),
        report("prairielearn", "prairielearn.json"),
        "--color".into(),
        "never".into(),
        "--bot-cmd".into(),
        shell_words::join(&entry.command),
    ]);
    args
}

pub fn start(
    index: usize,
    entry: &Entry,
    run_options: &[String],
    out: &Path,
    jobs: usize,
    budget: Option<Duration>,
) -> std::io::Result<Running> {
    use std::os::unix::process::CommandExt;
    let dir = folder(out, &entry.id);
    std::fs::create_dir_all(&dir)?;
    // A report left from an earlier run must not be taken for this one's.
    for stale in REPORTS {
        let _ = std::fs::remove_file(dir.join(stale));
    }
    let stderr = std::fs::File::create(dir.join("protocheck.log"))?;
    let mut command = Command::new(std::env::current_exe()?);
    command
        .args(arguments(entry, run_options, out, jobs, budget))
        .current_dir(&entry.workdir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        // Its own group: a signal meant for one bot's protocheck (or the
        // terminal's Ctrl-C, which grade passes on) reaches no other.
        .process_group(0);
    die_with_parent(&mut command);
    Ok(Running {
        index,
        child: command.spawn()?,
        started: Instant::now(),
        jobs,
        overran: None,
    })
}

/// A grade that is killed takes its children with it (they then stop
/// their bots and write their reports), also when SIGKILLed.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork
    // and exec here. Children are started from grade's main thread, which
    // lives as long as grade (the signal is tied to the forking thread).
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
}

/// Elsewhere grade passes its own stop on to its children (`stop`); a
/// SIGKILLed grade leaves them to finish on their own.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_command: &mut Command) {}

/// Pass a stop on to a bot's protocheck: it kills its bot, writes its
/// report (scenarios marked interrupted) and exits.
pub fn stop(running: &Running, signal: i32) {
    // SAFETY: killpg has no memory-safety preconditions; the group is the
    // child's own (process_group(0)) and the child is not yet reaped.
    unsafe {
        libc::killpg(running.child.id() as libc::pid_t, signal);
    }
}

/// Exit status in the table's terms.
pub fn ended(status: ExitStatus) -> super::table::Ended {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => super::table::Ended::Code(code),
        (None, Some(signal)) => {
            super::table::Ended::Signal(crate::transport::process::signal_name(signal))
        }
        (None, None) => super::table::Ended::Code(2),
    }
}
