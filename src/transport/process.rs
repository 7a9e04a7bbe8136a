//! The lifecycle of an untrusted bot process: its own process group, exit
//! detection, and a kill of the whole group (TERM, grace, KILL, reap) on every
//! exit path, including panics (via `Drop`) and Ctrl-C (via the live registry).
//! On Linux every bot also dies with protocheck (parent-death signal), and
//! whatever left its group is swept up by [`super::guard`].

mod spawner;

use super::guard;
use super::limits::ResourceLimits;
use super::live::{Watch, lock_live};
use super::sandbox::Confinement;
pub use spawner::is_interrupted_spawn;
use spawner::{Started, spawn_registered};
use std::process::Command;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

// How a bot ended is a plain value every layer reads (the guard's limit
// evidence, the signal handler's words, the games): it lives below them all,
// in `exit_status`, and stays reachable here under its old path.
pub use super::exit_status::{ExitStatus, signal_name};

/// SIGKILL every bot protocheck started and has not yet reaped, and
/// whatever escaped their groups, and refuse to start any more. Called from
/// the signal handler once the run's stop is set; safe to call from any
/// thread. Spawning registers its group under the same lock, so a bot
/// started concurrently is either killed here or never started.
pub fn kill_all_live_groups() {
    {
        let mut live = lock_live();
        live.closed = true;
        for &pgid in live.groups.keys() {
            // SAFETY: killpg has no memory-safety preconditions.
            unsafe { libc::killpg(pgid, libc::SIGKILL) };
        }
    }
    guard::sweep(None);
}

/// Kill whatever is left of every bot (escapees included): the last thing
/// protocheck does before it exits.
pub fn kill_everything_left() {
    guard::sweep(None);
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
    watch: Arc<Watch>,
    /// Kept until the group is gone: dropping it deletes the bot's private
    /// temporary folder.
    confinement: Confinement,
}

/// The pipes of a freshly spawned bot.
pub struct Pipes {
    pub stdin: std::process::ChildStdin,
    pub stdout: std::process::ChildStdout,
    pub stderr: std::process::ChildStderr,
}

impl ProcessGroup {
    /// Start `command` in a process group of its own with all three standard
    /// streams piped, tagged, limited and confined. `on_exit` is called from
    /// the waiter thread with the exit status as soon as the bot's main
    /// process ends. Every bot protocheck starts is started here.
    pub fn spawn(
        mut command: Command,
        grace: Duration,
        limits: ResourceLimits,
        confinement: Confinement,
        on_exit: impl FnOnce(ExitStatus, Instant) + Send + 'static,
    ) -> std::io::Result<(ProcessGroup, Pipes)> {
        let watch = Arc::new(Watch::new(
            super::tag::next_bot_tag(),
            limits,
            confinement.disk(),
        ));
        command.env(super::tag::TAG_VAR, &watch.tag);
        let rules = confinement.for_child();
        let Started { pid, pipes, waiter } =
            spawn_registered(command, limits, rules, Arc::clone(&watch))?;
        let exit = Arc::new(ExitCell::default());
        let cell = Arc::clone(&exit);
        std::thread::Builder::new()
            .name(format!("bot-{pid}-wait"))
            .spawn(move || {
                // `Child::wait` reaps only the main process; the rest of the
                // group is reaped in `terminate`.
                let status = match waiter.wait() {
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
                watch,
                confinement,
            },
            pipes,
        ))
    }

    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// The sandbox layers that confine this bot.
    pub fn sandbox(&self) -> &super::sandbox::Layers {
        &self.confinement.layers
    }

    /// The bot's tag, limits and observed usage.
    pub fn watch(&self) -> &Watch {
        &self.watch
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
        // A stopped bot (SIGSTOP) acts on SIGTERM only once continued.
        unsafe { libc::killpg(self.pid, libc::SIGCONT) };
        let status = self.wait_until(Instant::now() + self.grace);
        unsafe { libc::killpg(self.pid, libc::SIGKILL) };
        let status = status.or_else(|| self.wait_until(Instant::now() + Duration::from_secs(5)));
        let reaped = self.reap_group();
        // Whatever left the group (setsid, setpgid, daemons) goes too.
        let swept = guard::sweep(Some(self.pid));
        lock_live().groups.remove(&self.pid);
        if status.is_some() && reaped && swept {
            // Nothing of the bot can write in its folders any more.
            self.confinement.processes_gone();
        }
        status
    }

    /// Reap group members reparented to us (we are a subreaper), so nothing
    /// stays behind as a zombie. Bounded: SIGKILL cannot be ignored, so the
    /// members go within milliseconds. Whether none is left (false: the
    /// bound ran out).
    fn reap_group(&self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            let mut status = 0;
            // SAFETY: see `terminate`.
            let r = unsafe { libc::waitpid(-self.pid, &mut status, libc::WNOHANG) };
            if r > 0 {
                continue; // reaped one; look for more
            }
            if r < 0 {
                return true; // ECHILD: none of ours left in the group
            }
            if Instant::now() >= deadline {
                return false;
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::transport::sandbox::SandboxOptions;
    use std::io::Read;

    /// Run `script` sandboxed to its end; its output and its TMPDIR.
    fn run_sandboxed(script: &str) -> Option<(String, std::path::PathBuf)> {
        run_with(script, &SandboxOptions::default())
    }

    /// Run `script` with `options` to its end; its output and its TMPDIR
    /// (`None`: it had none, it ran unconfined).
    fn run_with(script: &str, options: &SandboxOptions) -> Option<(String, std::path::PathBuf)> {
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(script);
        let confinement = Confinement::prepare(options, &mut command, None).unwrap();
        let tmp = confinement.tmp().map(|t| t.to_path_buf());
        let (mut group, mut pipes) = ProcessGroup::spawn(
            command,
            Duration::from_millis(100),
            ResourceLimits::default(),
            confinement,
            |_, _| {},
        )
        .expect("sh starts");
        let mut out = String::new();
        pipes.stdout.read_to_string(&mut out).unwrap();
        group.wait_until(Instant::now() + Duration::from_secs(10));
        group.terminate();
        drop(group);
        Some((out, tmp?))
    }

    #[test]
    fn a_bots_private_folder_is_kept_for_the_next_only_when_left_empty() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let Some((out, tmp)) = run_sandboxed("echo \"$TMPDIR\"; ls -A \"$TMPDIR\"") else {
            return; // no sandbox on this kernel
        };
        assert_eq!(out, format!("{}\n", tmp.display()), "empty at the start");
        // Its processes are gone and it is empty: kept, still the run's own.
        let meta = std::fs::metadata(&tmp).expect("kept for the next start");
        assert_eq!(meta.permissions().mode() & 0o777, 0o700);
        // SAFETY: geteuid has no preconditions.
        assert_eq!(meta.uid(), unsafe { libc::geteuid() });
        // A bot that leaves a file: its folder goes, it never reaches another.
        let (_, left) = run_sandboxed("touch \"$TMPDIR/left\"").unwrap();
        assert!(!left.exists());
    }

    /// The `/proc` status lines of the sandbox's inherited part.
    const STATUS: &str =
        "grep -E '^(Seccomp|Seccomp_filters|NoNewPrivs|CapBnd):' /proc/self/status";

    /// The status line `field` of `/proc` file `status`, without the name.
    fn field(status: &str, name: &str) -> String {
        status
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}:")))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("no {name} in {status}"))
    }

    #[test]
    fn sandboxed_bots_inherit_the_filter_from_their_spawner_and_others_get_nothing() {
        use crate::transport::sandbox::{Mode, settle};
        let layers = settle(&SandboxOptions::default()).unwrap();
        if !layers.scheduling || !layers.files {
            return; // no seccomp or Landlock on this kernel
        }
        let (bot, _) = run_sandboxed(STATUS).expect("a sandboxed start");
        // The filter once (the spawner's), not twice; no_new_privs.
        assert_eq!(field(&bot, "Seccomp"), "2", "{bot}");
        assert_eq!(field(&bot, "Seccomp_filters"), "1", "{bot}");
        assert_eq!(field(&bot, "NoNewPrivs"), "1", "{bot}");
        let inherited = crate::transport::sandbox::inherited::current_capabilities();
        if crate::transport::sandbox::inherited::holds_capabilities(inherited) {
            assert_eq!(field(&bot, "CapBnd"), "0000000000000000", "{bot}");
        }
        // The thread that started it carries them, applied once.
        let spawner = std::fs::read_dir("/proc/self/task")
            .unwrap()
            .flatten()
            .find(|t| {
                std::fs::read_to_string(t.path().join("comm"))
                    .is_ok_and(|c| c.trim() == "bot-spawner-san")
            })
            .expect("a spawner thread for sandboxed bots");
        let thread = std::fs::read_to_string(spawner.path().join("status")).unwrap();
        assert_eq!(field(&thread, "Seccomp"), "2", "{thread}");
        assert_eq!(field(&thread, "NoNewPrivs"), "1", "{thread}");
        // protocheck's other threads carry nothing, and neither does a bot
        // started unconfined in the same run.
        let me = std::fs::read_to_string("/proc/thread-self/status").unwrap();
        assert_eq!(field(&me, "Seccomp"), "0", "{me}");
        let off = SandboxOptions {
            mode: Mode::Off,
            ..SandboxOptions::default()
        };
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(STATUS);
        let (mut group, mut pipes) = ProcessGroup::spawn(
            command,
            Duration::from_millis(100),
            ResourceLimits::default(),
            Confinement::prepare(&off, &mut Command::new("true"), None).unwrap(),
            |_, _| {},
        )
        .expect("sh starts");
        let mut open = String::new();
        pipes.stdout.read_to_string(&mut open).unwrap();
        group.terminate();
        assert_eq!(field(&open, "Seccomp"), "0", "{open}");
        assert_eq!(field(&open, "NoNewPrivs"), "0", "{open}");
    }
}
