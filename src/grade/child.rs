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
    pub child: Child,
    pub started: Instant,
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
        child: command.spawn()?,
        started: Instant::now(),
    })
}

/// A grade that is killed takes its children with it (they then stop
/// their bots and write their reports), also when SIGKILLed.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork
    // and exec here. The signal is tied to the forking thread: each child
    // is started by the pool thread that then waits for it to end.
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

/// Send `signal` to a bot's protocheck (its process group, `group`): a
/// stop it passes on kills its bot, writes its report (scenarios marked
/// interrupted) and exits. Only while the child is not reaped (see
/// [`wait_unreaped`]): the group's id is its own until then.
pub fn signal(group: i32, signal: i32) {
    // SAFETY: killpg has no memory-safety preconditions; the group is the
    // child's own (process_group(0)).
    unsafe {
        libc::killpg(group, signal);
    }
}

/// Block until the child `pid` has ended, leaving it to be reaped
/// (`Child::wait`), so its pid and group id are not reused meanwhile.
pub fn wait_unreaped(pid: i32) -> std::io::Result<()> {
    loop {
        // SAFETY: waitid writes one siginfo_t, which we own.
        let done = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if done == 0 {
            return Ok(());
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(error);
        }
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
