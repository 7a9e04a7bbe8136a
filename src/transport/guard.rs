//! Keeping track of every process a bot starts, wherever it goes.
//!
//! Each bot is started with `PROTOCHECK_BOT=<run>.<n>` in its environment
//! (`super::tag`).
//! protocheck is a child subreaper, so a process that leaves its bot's
//! process group (`setsid`, `setpgid`, a double-forking daemon) is still a
//! descendant of protocheck, re-parented to it when its parent dies. On
//! Linux, one scan of /proc attributes every descendant to its bot: by
//! ancestry, or for an orphan re-parented to protocheck by the tag in its
//! environment. That serves three purposes:
//! - the **monitor** thread (`monitor.rs`) counts each bot's processes and
//!   CPU time every 100 ms and kills a bot that goes over
//!   `--max-processes`/`--cpu-limit`;
//! - the **sweep** at the end of each scenario and at exit kills and reaps
//!   every process of the bot that outlived the process-group kill;
//! - the **guardian**, a tiny process of its own (`protocheck` re-executed,
//!   in its own process group, with an empty environment), waits for
//!   protocheck to die, however it dies (even SIGKILL), and then kills every
//!   process carrying this run's tag.
//!
//! Elsewhere (macOS) there is no /proc: the process-group kill is all there is.

mod monitor;

#[cfg(all(test, target_os = "linux"))]
use super::limits::ResourceLimits;
pub use monitor::limit_from_exit;
pub(super) use monitor::start_monitor_once;
use std::sync::atomic::Ordering;
#[cfg(target_os = "linux")]
use {
    super::live::{Watch, lock_live},
    super::tag::{TAG_VAR, run_tag},
    std::sync::Arc,
    std::time::Duration,
};

/// The hidden first argument that turns protocheck into its own guardian.
pub const GUARDIAN_ARG: &str = "__protocheck-guardian";

/// Whether `main.rs` asked for a guardian (library users and unit tests,
/// whose executable is not protocheck, must not re-execute themselves).
static GUARDIAN_WANTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// The guardian's pid once started (0: none).
static GUARDIAN_PID: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// Ask for a guardian; it is started with the first bot.
pub fn enable_guardian() {
    GUARDIAN_WANTED.store(true, Ordering::SeqCst);
}

/// Start the guardian if wanted and not yet started. Called before each
/// bot start, from the thread asking for it: never from a spawner thread,
/// whose sandbox the guardian must not inherit (`sandbox::inherited`).
pub(super) fn start_guardian_once() {
    #[cfg(target_os = "linux")]
    {
        static STARTED: std::sync::Once = std::sync::Once::new();
        if !GUARDIAN_WANTED.load(Ordering::SeqCst) {
            return;
        }
        STARTED.call_once(|| {
            use std::os::unix::process::CommandExt;
            // Under the live lock, as bots start: no sweep may see the
            // guardian before its pid is known (it would look like a
            // leftover of a bot).
            let _live = lock_live();
            let spawned = std::process::Command::new("/proc/self/exe")
                .arg(GUARDIAN_ARG)
                .arg(run_tag())
                // Where the bots' private temporary folders are, to remove
                // what a killed protocheck left.
                .arg(super::sandbox::run_folder_of(run_tag()))
                // An empty environment: the guardian carries no marker or tag
                // of the run, so it never looks like a leftover bot process.
                .env_clear()
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                // Its own group: `timeout -s KILL` and a terminal's SIGHUP
                // reach protocheck's group, not the guardian.
                .process_group(0)
                .spawn();
            if let Ok(mut child) = spawned {
                GUARDIAN_PID.store(child.id() as i32, Ordering::SeqCst);
                // The write end stays open exactly as long as protocheck
                // lives (it is close-on-exec, so no bot inherits it).
                std::mem::forget(child.stdin.take());
                std::mem::forget(child);
            }
        });
    }
}

/// The guardian: wait until protocheck is gone (its end of the pipe on our
/// stdin closes), then kill every process carrying the run's tag.
pub fn guardian_main(args: &[String]) -> i32 {
    let Some(run) = args.first() else {
        return 2;
    };
    #[cfg(target_os = "linux")]
    {
        use std::io::Read;
        // SAFETY: setting signal dispositions to SIG_IGN has no preconditions.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
        let mut stdin = std::io::stdin().lock();
        let mut buf = [0u8; 64];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let prefix = format!("{run}.");
        let me = std::process::id() as i32;
        // Bounded: SIGKILL cannot be ignored, so a few rounds suffice even
        // for a bot that forks while being killed.
        for _ in 0..300 {
            let mut alive = 0;
            for p in super::procfs::snapshot() {
                if p.pid == me || p.is_zombie() {
                    continue;
                }
                if super::procfs::env_var(p.pid, TAG_VAR).is_some_and(|t| t.starts_with(&prefix)) {
                    // SAFETY: kill has no memory-safety preconditions.
                    unsafe { libc::kill(p.pid, libc::SIGKILL) };
                    alive += 1;
                }
            }
            if alive == 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Some(folder) = args.get(1)
            && folder.contains(&format!("protocheck-{run}"))
        {
            let _ = std::fs::remove_dir_all(folder);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = run;
    0
}

/// Who a descendant of protocheck belongs to.
#[cfg(target_os = "linux")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// The bot whose main process has this pid.
    Bot(i32),
    /// An orphan whose bot is gone or whose tag was removed.
    Unknown,
}

/// Every descendant of protocheck except the guardian, with its owner.
/// Called with the live registry locked, so no bot is between fork and exec
/// (spawning holds the same lock) and the registry cannot change.
#[cfg(target_os = "linux")]
fn classify(
    groups: &std::collections::HashMap<i32, Arc<Watch>>,
    snapshot: &[super::procfs::ProcInfo],
) -> Vec<(super::procfs::ProcInfo, Owner)> {
    use std::collections::HashMap;
    let me = std::process::id() as i32;
    let guardian = GUARDIAN_PID.load(Ordering::SeqCst);
    let by_pid: HashMap<i32, super::procfs::ProcInfo> =
        snapshot.iter().map(|p| (p.pid, *p)).collect();
    let children = super::procfs::children_of(snapshot);
    let mut out = Vec::new();
    let mut stack: Vec<(i32, Owner)> = Vec::new();
    for &child in children.get(&me).into_iter().flatten() {
        if child == guardian {
            continue;
        }
        let owner = if groups.contains_key(&child) {
            Owner::Bot(child)
        } else {
            // An orphan re-parented to us: its tag says whose it is.
            super::procfs::env_var(child, TAG_VAR)
                .and_then(|tag| {
                    groups
                        .iter()
                        .find(|(_, w)| w.tag == tag)
                        .map(|(&pid, _)| Owner::Bot(pid))
                })
                .unwrap_or(Owner::Unknown)
        };
        stack.push((child, owner));
    }
    while let Some((pid, owner)) = stack.pop() {
        if let Some(info) = by_pid.get(&pid) {
            out.push((*info, owner));
        }
        for &grandchild in children.get(&pid).into_iter().flatten() {
            stack.push((grandchild, owner));
        }
    }
    out
}

/// The processes of the bot whose main process is `bot`: it and every
/// descendant of protocheck that belongs to it (`peer`: whether a
/// connection is the bot's).
#[cfg(target_os = "linux")]
pub(super) fn processes_of_bot(bot: i32) -> Vec<i32> {
    let live = lock_live();
    let snapshot = super::procfs::snapshot();
    classify(&live.groups, &snapshot)
        .into_iter()
        .filter(|(_, owner)| *owner == Owner::Bot(bot))
        .map(|(p, _)| p.pid)
        .collect()
}

/// Whether protocheck's only children are the registered bots' main
/// processes and the guardian: then nothing of a bot whose group is killed
/// and reaped is left, and its sweep need not scan all of /proc (one scan
/// per bot per scenario is most of what ending a short game costs, and it
/// grows with every process on the machine). A process that left its bot's
/// group hangs below a living process of that bot or, once its parent is
/// gone, below protocheck (a subreaper): so when the bot's main process is
/// reaped, anything left of it shows as a child of protocheck that is no
/// registered main process. Reparented orphans join any of protocheck's
/// threads, so every thread's `children` is read. Called with the live
/// registry locked: no bot is between fork and registration.
#[cfg(target_os = "linux")]
fn only_known_children(groups: &std::collections::HashMap<i32, Arc<Watch>>) -> bool {
    let guardian = GUARDIAN_PID.load(Ordering::SeqCst);
    let Ok(threads) = std::fs::read_dir("/proc/self/task") else {
        return false;
    };
    for thread in threads {
        let Ok(thread) = thread else {
            return false;
        };
        let tid = thread.file_name();
        let path = format!("/proc/self/task/{}/children", tid.to_string_lossy());
        let Ok(children) = super::procfs::read(&path) else {
            // A thread that ended meanwhile had no children left (they
            // went to another thread); any other failure: scan instead.
            if std::fs::metadata(thread.path()).is_err() {
                continue;
            }
            return false;
        };
        for child in children.split_whitespace() {
            let Ok(pid) = child.parse::<i32>() else {
                return false;
            };
            if pid != guardian && !groups.contains_key(&pid) {
                return false;
            }
        }
    }
    true
}

/// Kill and reap what is left of one bot (`Some(main pid)`), plus any
/// orphan nobody owns; or, with `None`, every descendant of protocheck.
/// Bounded (2 s): SIGKILL cannot be ignored, so this ends within
/// milliseconds even for a bot that keeps forking. Whether nothing of it is
/// left alive (false: the bound ran out, or not Linux, where there is no
/// way to tell).
pub fn sweep(bot: Option<i32>) -> bool {
    #[cfg(target_os = "linux")]
    {
        let me = std::process::id() as i32;
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        if bot.is_some() && only_known_children(&lock_live().groups) {
            return true;
        }
        loop {
            let mut alive = 0;
            {
                let live = lock_live();
                let snapshot = super::procfs::snapshot();
                for (p, owner) in classify(&live.groups, &snapshot) {
                    let ours = match (bot, owner) {
                        (None, _) | (_, Owner::Unknown) => true,
                        (Some(b), Owner::Bot(o)) => b == o,
                    };
                    if !ours {
                        continue;
                    }
                    if p.is_zombie() {
                        // Reap our own zombies, but never a registered bot's
                        // main process: its waiter thread reaps that one.
                        if p.ppid == me && !live.groups.contains_key(&p.pid) {
                            let mut status = 0;
                            // SAFETY: waitpid on a specific child of ours.
                            unsafe { libc::waitpid(p.pid, &mut status, libc::WNOHANG) };
                        }
                        continue;
                    }
                    // SAFETY: kill has no memory-safety preconditions.
                    unsafe { libc::kill(p.pid, libc::SIGKILL) };
                    alive += 1;
                }
            }
            if alive == 0 {
                return true;
            }
            if std::time::Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = bot;
        false
    }
}

/// A child a unit test starts itself, known to the sweep as a bot's main
/// process is. The tests of one binary run side by side, and the sweep that
/// ends another test's bot kills every child of protocheck it does not know
/// (a bot's orphans): that would be this one, at random.
#[cfg(all(test, target_os = "linux"))]
pub(crate) struct KnownChild(i32);

#[cfg(all(test, target_os = "linux"))]
impl KnownChild {
    /// Start `command` and make it known, holding the registry while it
    /// starts, so no sweep sees it unknown in between.
    pub(crate) fn spawn(command: &mut std::process::Command) -> (std::process::Child, KnownChild) {
        let mut live = lock_live();
        let child = command.spawn().expect("the test's child starts");
        let pid = child.id() as i32;
        let watch = Watch::new(format!("test-child-{pid}"), ResourceLimits::default(), None);
        live.groups.insert(pid, Arc::new(watch));
        (child, KnownChild(pid))
    }
}

#[cfg(all(test, target_os = "linux"))]
impl Drop for KnownChild {
    fn drop(&mut self) {
        lock_live().groups.remove(&self.0);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_child_that_is_no_registered_bot_makes_the_sweep_scan() {
        // No other test's sweep may kill and reap the child meanwhile.
        let no_sweep = lock_live();
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep starts");
        let groups = std::collections::HashMap::new();
        assert!(
            !only_known_children(&groups),
            "an unregistered child is what a sweep must find"
        );
        let mut registered = std::collections::HashMap::new();
        registered.insert(
            child.id() as i32,
            Arc::new(Watch::new("t".into(), ResourceLimits::default(), None)),
        );
        // Other tests of this binary may have children of their own, so
        // only the unregistered case can be asserted here; the registered
        // one is covered end to end (tests/integration/hostile.rs, every match test).
        let _ = only_known_children(&registered);
        drop(no_sweep);
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
