//! The lifecycle of an untrusted bot process: its own process group, exit
//! detection, and a kill of the whole group (TERM, grace, KILL, reap) on every
//! exit path, including panics (via `Drop`) and Ctrl-C (via the live registry).
//! On Linux every bot also dies with protocheck (parent-death signal), and
//! whatever left its group is swept up by [`super::guard`].

use super::guard;
use super::limits::ResourceLimits;
#[cfg(not(target_os = "linux"))]
use super::limits::lower_limit;
use super::live::{Watch, lock_live};
use super::sandbox::{ChildRules, Confinement};
use std::collections::HashMap;
#[cfg(not(target_os = "linux"))]
use std::process::Stdio;
use std::process::{Child, Command};
use std::sync::mpsc;
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

/// Why the spawner refused: the run is being ended by a signal.
#[derive(Debug)]
struct RunInterrupted;

impl std::fmt::Display for RunInterrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("protocheck was interrupted")
    }
}

impl std::error::Error for RunInterrupted {}

/// A spawn request for the spawner thread.
type SpawnRequest = (
    Command,
    ResourceLimits,
    ChildRules,
    Arc<Watch>,
    mpsc::Sender<std::io::Result<Started>>,
);

/// A bot just started: its pid, its pipes, and how to wait for its end.
struct Started {
    pid: i32,
    pipes: Pipes,
    waiter: Waiter,
}

/// How the waiter thread learns the main process's exit status.
enum Waiter {
    /// `waitpid` on the pid (Linux: started by [`super::vfork_spawn`]).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Pid(i32),
    /// The standard library's child (elsewhere).
    #[cfg_attr(target_os = "linux", allow(dead_code))]
    Child(Child),
}

impl Waiter {
    fn wait(self) -> std::io::Result<std::process::ExitStatus> {
        use std::os::unix::process::ExitStatusExt;
        match self {
            Waiter::Pid(pid) => loop {
                let mut status = 0;
                // SAFETY: waitpid on our own child, reaped only here.
                if unsafe { libc::waitpid(pid, &mut status, 0) } == pid {
                    return Ok(std::process::ExitStatus::from_raw(status));
                }
                let error = std::io::Error::last_os_error();
                if error.kind() != std::io::ErrorKind::Interrupted {
                    return Err(error);
                }
            },
            Waiter::Child(mut child) => child.wait(),
        }
    }
}

/// Start `command`: on Linux without copying protocheck (see
/// [`super::vfork_spawn`]); elsewhere with the standard library, which
/// forks to run [`restrict`] before exec.
fn start(command: Command, limits: ResourceLimits, rules: ChildRules) -> std::io::Result<Started> {
    #[cfg(target_os = "linux")]
    {
        let bot = super::vfork_spawn::spawn(&command, limits, rules)?;
        Ok(Started {
            pid: bot.pid,
            pipes: Pipes {
                stdin: bot.stdin,
                stdout: bot.stdout,
                stderr: bot.stderr,
            },
            waiter: Waiter::Pid(bot.pid),
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        use std::os::unix::process::CommandExt;
        let mut command = command;
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        restrict(&mut command, limits, rules);
        let mut child = command.spawn()?;
        Ok(Started {
            pid: child.id() as i32,
            pipes: Pipes {
                stdin: child.stdin.take().expect("stdin piped"),
                stdout: child.stdout.take().expect("stdout piped"),
                stderr: child.stderr.take().expect("stderr piped"),
            },
            waiter: Waiter::Child(child),
        })
    }
}

/// Start a bot from a long-lived spawner thread. Linux delivers the
/// parent-death signal when the *thread* that forked the child ends, so
/// bots must not be forked by suite workers, which end before protocheck.
/// Sandboxed bots have a spawner of their own, which carries the part of
/// the sandbox a child inherits (see [`super::sandbox::inherited`]); every
/// other start goes to the plain one. The spawner registers the bot under
/// the live lock (see [`kill_all_live_groups`]).
fn spawn_registered(
    command: Command,
    limits: ResourceLimits,
    rules: ChildRules,
    watch: Arc<Watch>,
) -> std::io::Result<Started> {
    guard::start_guardian_once();
    guard::start_monitor_once();
    let spawner = spawner_for(&rules)?;
    let (reply_tx, reply_rx) = mpsc::channel();
    spawner
        .send((command, limits, rules, watch, reply_tx))
        .map_err(|_| std::io::Error::other("the bot-spawner thread is gone"))?;
    // Refused after an interrupt: the error carries `RunInterrupted`, so the
    // suite reports the scenario as interrupted, not the bot as unstartable.
    reply_rx
        .recv()
        .map_err(|_| std::io::Error::other("the bot-spawner thread is gone"))?
}

/// Which spawner a start goes to: what its thread carries for every child
/// (`None`: nothing, the plain spawner).
#[cfg(target_os = "linux")]
type SpawnerKey = Option<super::sandbox::inherited::ThreadKey>;
#[cfg(not(target_os = "linux"))]
type SpawnerKey = ();

/// The spawner thread for starts with `rules`, started with the first.
fn spawner_for(rules: &ChildRules) -> std::io::Result<mpsc::Sender<SpawnRequest>> {
    static SPAWNERS: OnceLock<Mutex<HashMap<SpawnerKey, mpsc::Sender<SpawnRequest>>>> =
        OnceLock::new();
    #[cfg(target_os = "linux")]
    let key: SpawnerKey = super::sandbox::inherited::ThreadKey::of(rules);
    #[cfg(not(target_os = "linux"))]
    let key: SpawnerKey = ();
    let mut spawners = SPAWNERS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(spawner) = spawners.get(&key) {
        return Ok(spawner.clone());
    }
    let (tx, rx) = mpsc::channel::<SpawnRequest>();
    #[cfg(target_os = "linux")]
    let (first, name) = (
        *rules,
        if key.is_some() {
            "bot-spawner-sandboxed"
        } else {
            "bot-spawner"
        },
    );
    #[cfg(not(target_os = "linux"))]
    let (name, _) = ("bot-spawner", rules);
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            // Applied once, to this thread alone: it starts nothing but
            // bots with these rules.
            #[cfg(target_os = "linux")]
            let carried = match key {
                Some(_) => super::sandbox::inherited::confine_this_thread(&first),
                None => Default::default(),
            };
            for (command, limits, rules, watch, reply) in rx {
                #[cfg(target_os = "linux")]
                let rules = carried.left_to_child(rules);
                let result = {
                    let mut live = lock_live();
                    if live.closed {
                        Err(std::io::Error::other(RunInterrupted))
                    } else {
                        start(command, limits, rules).inspect(|bot| {
                            live.groups.insert(bot.pid, watch);
                        })
                    }
                };
                let _ = reply.send(result);
            }
        })?;
    spawners.insert(key, tx.clone());
    Ok(tx)
}

/// Whether a spawn failed because protocheck is being stopped (see
/// [`kill_all_live_groups`]), not because of the bot.
pub fn is_interrupted_spawn(error: &std::io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<RunInterrupted>())
}

/// Set up, in the forked child before exec: the resource limits. (Linux
/// does this, and sets the parent-death signal, in [`super::vfork_spawn`].)
#[cfg(not(target_os = "linux"))]
fn restrict(command: &mut Command, limits: ResourceLimits, rules: ChildRules) {
    use std::os::unix::process::CommandExt;
    let memory = limits.memory;
    let file_size = rules.file_size;
    // RLIMIT_CPU is per process and in whole seconds; it is the backstop
    // (SIGXCPU) behind the monitor, which sums all the bot's processes.
    let cpu_seconds = limits.cpu.map(|d| d.as_secs() + 2);
    // SAFETY: the closure runs between fork and exec and calls only
    // async-signal-safe functions (getrlimit, setrlimit); it allocates
    // nothing.
    unsafe {
        command.pre_exec(move || {
            lower_limit(libc::RLIMIT_CORE, 0, 0)?;
            if let Some(bytes) = memory {
                lower_limit(libc::RLIMIT_AS, bytes, bytes)?;
            }
            if let Some(s) = cpu_seconds {
                lower_limit(libc::RLIMIT_CPU, s, s + 1)?;
            }
            if let Some(bytes) = file_size {
                lower_limit(libc::RLIMIT_FSIZE, bytes, bytes)?;
            }
            Ok(())
        })
    };
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
            guard::next_bot_tag(),
            limits,
            confinement.disk(),
        ));
        command.env(guard::TAG_VAR, &watch.tag);
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
