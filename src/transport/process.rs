//! The lifecycle of an untrusted bot process: its own process group, exit
//! detection, and a kill of the whole group (TERM, grace, KILL, reap) on every
//! exit path, including panics (via `Drop`) and Ctrl-C (via the live registry).

use std::collections::HashSet;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How a bot process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    Code(i32),
    Signal(i32),
}

impl ExitStatus {
    pub fn success(self) -> bool {
        self == ExitStatus::Code(0)
    }
}

impl std::fmt::Display for ExitStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ExitStatus::Code(c) => write!(f, "exit status {c}"),
            ExitStatus::Signal(s) => write!(f, "killed by signal {} ({s})", signal_name(s)),
        }
    }
}

/// The conventional name of a signal, for reports (`SIGSEGV`, not `11`).
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => "signal",
    }
}

/// Process groups that are alive right now, so an interrupt can kill them
/// all; and whether an interrupt has happened (then nothing new may start).
#[derive(Default)]
struct Live {
    groups: HashSet<i32>,
    interrupted: bool,
}

fn live() -> &'static Mutex<Live> {
    static LIVE: OnceLock<Mutex<Live>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(Live::default()))
}

fn lock_live() -> std::sync::MutexGuard<'static, Live> {
    live().lock().unwrap_or_else(|e| e.into_inner())
}

/// SIGKILL every process group protocheck started and has not yet reaped,
/// and refuse to start any more. Called from the Ctrl-C handler; safe to
/// call from any thread. Spawning registers its group under the same lock,
/// so a bot started concurrently is either killed here or never started.
pub fn kill_all_live_groups() {
    let mut live = lock_live();
    live.interrupted = true;
    for &pgid in live.groups.iter() {
        // SAFETY: killpg has no memory-safety preconditions.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
    }
}

/// Make protocheck the reaper of orphaned descendants (Linux), so a bot's
/// grandchildren are reparented to us when the bot dies and can be reaped
/// with the group instead of lingering as zombies elsewhere.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER) only flips a flag on this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// The exit status once the waiter thread has seen it.
#[derive(Default)]
struct ExitCell {
    status: Mutex<Option<(ExitStatus, Instant)>>,
    changed: Condvar,
}

/// A running bot and its process group. Dropping it terminates the group.
pub struct ProcessGroup {
    pid: i32,
    exit: Arc<ExitCell>,
    terminated: bool,
    grace: Duration,
}

/// The pipes of a freshly spawned bot.
pub struct Pipes {
    pub stdin: std::process::ChildStdin,
    pub stdout: std::process::ChildStdout,
    pub stderr: std::process::ChildStderr,
}

impl ProcessGroup {
    /// Start `command` in a process group of its own with all three standard
    /// streams piped. `on_exit` is called from the waiter thread with the exit
    /// status as soon as the bot's main process ends.
    pub fn spawn(
        mut command: Command,
        grace: Duration,
        on_exit: impl FnOnce(ExitStatus, Instant) + Send + 'static,
    ) -> std::io::Result<(ProcessGroup, Pipes)> {
        use std::os::unix::process::CommandExt;
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child: Child = {
            let mut live = lock_live();
            if live.interrupted {
                return Err(std::io::Error::other("protocheck was interrupted"));
            }
            let child = command.spawn()?;
            live.groups.insert(child.id() as i32);
            child
        };
        let pid = child.id() as i32;
        let pipes = Pipes {
            stdin: child.stdin.take().expect("stdin piped"),
            stdout: child.stdout.take().expect("stdout piped"),
            stderr: child.stderr.take().expect("stderr piped"),
        };
        let exit = Arc::new(ExitCell::default());
        let cell = Arc::clone(&exit);
        std::thread::Builder::new()
            .name(format!("bot-{pid}-wait"))
            .spawn(move || {
                // `Child::wait` reaps only the main process; the rest of the
                // group is reaped in `terminate`.
                let status = match child.wait() {
                    Ok(s) => {
                        use std::os::unix::process::ExitStatusExt;
                        match (s.code(), s.signal()) {
                            (Some(c), _) => ExitStatus::Code(c),
                            (None, Some(sig)) => ExitStatus::Signal(sig),
                            (None, None) => ExitStatus::Code(-1),
                        }
                    }
                    Err(_) => ExitStatus::Code(-1),
                };
                let at = Instant::now();
                *cell.status.lock().unwrap_or_else(|e| e.into_inner()) = Some((status, at));
                cell.changed.notify_all();
                on_exit(status, at);
            })?;
        Ok((
            ProcessGroup {
                pid,
                exit,
                terminated: false,
                grace,
            },
            pipes,
        ))
    }

    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// The exit status, if the main process has ended.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        self.lock_status().map(|(s, _)| s)
    }

    /// Wait until the main process ends or `deadline` passes.
    pub fn wait_until(&self, deadline: Instant) -> Option<ExitStatus> {
        let mut guard = self.exit.status.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some((s, _)) = *guard {
                return Some(s);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            guard = self
                .exit
                .changed
                .wait_timeout(guard, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn lock_status(&self) -> Option<(ExitStatus, Instant)> {
        *self.exit.status.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Terminate the whole group: SIGTERM, up to the grace period for the main
    /// process to go, then SIGKILL to everything left in the group, then reap.
    /// Idempotent. Returns the main process's status when known.
    pub fn terminate(&mut self) -> Option<ExitStatus> {
        if self.terminated {
            return self.exit_status();
        }
        self.terminated = true;
        // SAFETY: killpg/waitpid have no memory-safety preconditions; the
        // group id is our own child's pid, which we have not reaped-and-lost:
        // the group lives as long as any member does.
        unsafe { libc::killpg(self.pid, libc::SIGTERM) };
        let status = self.wait_until(Instant::now() + self.grace);
        unsafe { libc::killpg(self.pid, libc::SIGKILL) };
        let status = status.or_else(|| self.wait_until(Instant::now() + Duration::from_secs(5)));
        self.reap_group();
        lock_live().groups.remove(&self.pid);
        status
    }

    /// Reap group members reparented to us (we are a subreaper), so nothing
    /// stays behind as a zombie. Bounded: SIGKILL cannot be ignored, so the
    /// members go within milliseconds.
    fn reap_group(&self) {
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            let mut status = 0;
            // SAFETY: see `terminate`.
            let r = unsafe { libc::waitpid(-self.pid, &mut status, libc::WNOHANG) };
            if r > 0 {
                continue; // reaped one; look for more
            }
            if r < 0 || Instant::now() >= deadline {
                return; // ECHILD: none of ours left in the group
            }
            // Members exist but none has finished dying yet.
            std::thread::sleep(Duration::from_millis(2));
            // Killing again catches members forked after the first SIGKILL.
            unsafe { libc::killpg(self.pid, libc::SIGKILL) };
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.terminate();
    }
}
