//! Starting a bot's process: on a long-lived spawner thread (one plain,
//! one per set of inherited sandbox rules), registered in the live registry
//! under its lock, and on Linux without copying protocheck
//! ([`crate::transport::vfork_spawn`]). What runs once the bot has started
//! (waiting, killing, reaping) is [`super::ProcessGroup`]'s.

use super::Pipes;
use crate::transport::limits::ResourceLimits;
#[cfg(not(target_os = "linux"))]
use crate::transport::limits::lower_limit;
use crate::transport::live::{Watch, lock_live};
use crate::transport::sandbox::ChildRules;
#[cfg(target_os = "linux")]
use crate::transport::sandbox::inherited;
use std::collections::HashMap;
#[cfg(not(target_os = "linux"))]
use std::process::Stdio;
use std::process::{Child, Command};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

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
pub(super) struct Started {
    pub(super) pid: i32,
    pub(super) pipes: Pipes,
    pub(super) waiter: Waiter,
}

/// How the waiter thread learns the main process's exit status.
pub(super) enum Waiter {
    /// `waitpid` on the pid (Linux: started by [`crate::transport::vfork_spawn`]).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Pid(i32),
    /// The standard library's child (elsewhere).
    #[cfg_attr(target_os = "linux", allow(dead_code))]
    Child(Child),
}

impl Waiter {
    pub(super) fn wait(self) -> std::io::Result<std::process::ExitStatus> {
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
/// [`crate::transport::vfork_spawn`]); elsewhere with the standard library, which
/// forks to run [`restrict`] before exec.
fn start(command: Command, limits: ResourceLimits, rules: ChildRules) -> std::io::Result<Started> {
    #[cfg(target_os = "linux")]
    {
        let bot = crate::transport::vfork_spawn::spawn(&command, limits, rules)?;
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
/// the sandbox a child inherits (see [`crate::transport::sandbox::inherited`]); every
/// other start goes to the plain one. The spawner registers the bot under
/// the live lock (see [`super::kill_all_live_groups`]).
pub(super) fn spawn_registered(
    command: Command,
    limits: ResourceLimits,
    rules: ChildRules,
    watch: Arc<Watch>,
) -> std::io::Result<Started> {
    crate::transport::guard::start_guardian_once();
    crate::transport::guard::start_monitor_once();
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
type SpawnerKey = Option<inherited::ThreadKey>;
#[cfg(not(target_os = "linux"))]
type SpawnerKey = ();

/// The spawner thread for starts with `rules`, started with the first.
fn spawner_for(rules: &ChildRules) -> std::io::Result<mpsc::Sender<SpawnRequest>> {
    static SPAWNERS: OnceLock<Mutex<HashMap<SpawnerKey, mpsc::Sender<SpawnRequest>>>> =
        OnceLock::new();
    #[cfg(target_os = "linux")]
    let key: SpawnerKey = inherited::ThreadKey::of(rules);
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
                Some(_) => inherited::confine_this_thread(&first),
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
/// [`super::kill_all_live_groups`]), not because of the bot.
pub fn is_interrupted_spawn(error: &std::io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<RunInterrupted>())
}

/// Set up, in the forked child before exec: the resource limits. (Linux
/// does this, and sets the parent-death signal, in [`crate::transport::vfork_spawn`].)
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
