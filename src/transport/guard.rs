//! Keeping track of every process a bot starts, wherever it goes.
//!
//! Each bot is started with `PROTOCHECK_BOT=<run>.<n>` in its environment.
//! protocheck is a child subreaper, so a process that leaves its bot's
//! process group (`setsid`, `setpgid`, a double-forking daemon) is still a
//! descendant of protocheck, re-parented to it when its parent dies. On
//! Linux, one scan of /proc attributes every descendant to its bot: by
//! ancestry, or for an orphan re-parented to protocheck by the tag in its
//! environment. That serves three purposes:
//! - the **monitor** thread counts each bot's processes and CPU time every
//!   100 ms and kills a bot that goes over `--max-processes`/`--cpu-limit`;
//! - the **sweep** at the end of each scenario and at exit kills and reaps
//!   every process of the bot that outlived the process-group kill;
//! - the **guardian**, a tiny process of its own (`protocheck` re-executed,
//!   in its own process group, with an empty environment), waits for
//!   protocheck to die, however it dies (even SIGKILL), and then kills every
//!   process carrying this run's tag.
//!
//! Elsewhere (macOS) there is no /proc: the process-group kill is all there is.

use super::limits::{LimitHit, LimitKind, ResourceLimits, format_size};
use super::live::Watch;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(target_os = "linux")]
use {super::live::lock_live, std::sync::Arc, std::time::Duration};

/// The environment variable that tags every bot process.
pub const TAG_VAR: &str = "PROTOCHECK_BOT";
/// The hidden first argument that turns protocheck into its own guardian.
pub const GUARDIAN_ARG: &str = "__protocheck-guardian";

/// This run's tag: unique per protocheck process.
pub fn run_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| format!("{}-{:08x}", std::process::id(), fastrand::u32(..)))
}

/// A fresh tag for the next bot.
pub fn next_bot_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{}.{}", run_tag(), NEXT.fetch_add(1, Ordering::Relaxed))
}

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

/// How often the monitor looks at the bots' processes (at most).
#[cfg(target_os = "linux")]
const MONITOR_PERIOD: Duration = Duration::from_millis(100);

/// Start the monitor thread once (Linux; elsewhere only the rlimits apply).
pub(super) fn start_monitor_once() {
    #[cfg(target_os = "linux")]
    {
        static STARTED: std::sync::Once = std::sync::Once::new();
        STARTED.call_once(|| {
            let _ = std::thread::Builder::new()
                .name("bot-monitor".into())
                .spawn(monitor_loop);
        });
    }
}

#[cfg(target_os = "linux")]
fn monitor_loop() {
    let ticks = super::procfs::ticks_per_second();
    let mut period = MONITOR_PERIOD;
    let mut last_disk_look = std::time::Instant::now();
    loop {
        std::thread::sleep(period);
        let live = lock_live();
        if live.groups.is_empty() {
            continue;
        }
        let started = thread_cpu_time();
        let snapshot = super::procfs::snapshot();
        let owned = classify(&live.groups, &snapshot);
        for (&bot, watch) in &live.groups {
            let mine: Vec<&super::procfs::ProcInfo> = owned
                .iter()
                .filter(|(_, o)| *o == Owner::Bot(bot))
                .map(|(p, _)| p)
                .collect();
            let running: Vec<i32> = mine
                .iter()
                .filter(|p| !p.is_zombie())
                .map(|p| p.pid)
                .collect();
            for &pid in &running {
                if let Some(peak) = super::procfs::vm_peak(pid) {
                    watch.peak_memory.fetch_max(peak, Ordering::Relaxed);
                }
            }
            let cpu =
                Duration::from_millis(mine.iter().map(|p| p.cpu_ticks).sum::<u64>() * 1000 / ticks);
            let tasks = mine
                .iter()
                .filter(|p| !p.is_zombie())
                .map(|p| p.threads as usize)
                .sum::<usize>();
            let hit = over_limit(&watch.limits, tasks, cpu);
            if let Some(hit) = hit {
                watch.record_hit(hit);
                // SAFETY: kill/killpg have no memory-safety preconditions;
                // `bot` is a registered, not yet reaped, group leader.
                unsafe { libc::killpg(bot, libc::SIGKILL) };
                for pid in running {
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
        }
        let disks: Vec<(i32, Arc<Watch>)> = live
            .groups
            .iter()
            .filter(|(_, w)| w.disk.is_some())
            .map(|(&bot, w)| (bot, Arc::clone(w)))
            .collect();
        drop(live);
        if !disks.is_empty() && last_disk_look.elapsed() >= DISK_PERIOD {
            last_disk_look = std::time::Instant::now();
            check_disks(disks);
        }
        // A scan reads every /proc/<pid>/stat (about 15 µs a process): on a
        // machine with thousands of processes, look less often, so that
        // watching costs at most ~5% of one core. The scan's own CPU time,
        // not its wall time: on a loaded machine the wall time is mostly
        // waiting for a CPU, and a period stretched by it let a burst of
        // threads over --max-processes pass unseen (a verdict that
        // depended on the load).
        period = MONITOR_PERIOD.max(thread_cpu_time().saturating_sub(started) * 20);
    }
}

/// The CPU time the calling thread has used.
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `now` is.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// How often the monitor measures the bots' writable folders: a walk of
/// the files costs more than a look at /proc, and a bot that writes fast
/// meets RLIMIT_FSIZE (the same cap, per file) first.
#[cfg(target_os = "linux")]
const DISK_PERIOD: Duration = Duration::from_millis(500);

/// Measure each bot's writable folders (with the registry unlocked: a walk
/// may take a while) and kill a bot over `--max-disk`, if it is still
/// registered (so its pid is still its own).
#[cfg(target_os = "linux")]
fn check_disks(bots: Vec<(i32, Arc<Watch>)>) {
    for (bot, watch) in bots {
        let Some(disk) = &watch.disk else {
            continue;
        };
        let used = disk.measure();
        if used <= disk.cap {
            continue;
        }
        let live = lock_live();
        if !live
            .groups
            .get(&bot)
            .is_some_and(|w| Arc::ptr_eq(w, &watch))
        {
            continue;
        }
        watch.record_hit(disk_hit(used, disk.cap));
        // SAFETY: `bot` is a registered, not yet reaped, group leader.
        unsafe { libc::killpg(bot, libc::SIGKILL) };
    }
}

/// The hit for a bot that wrote `used` bytes against a cap of `cap`.
#[cfg(target_os = "linux")]
fn disk_hit(used: u64, cap: u64) -> LimitHit {
    LimitHit {
        kind: LimitKind::Disk,
        message: format!(
            "the bot wrote {} to the folders it may write (its working folder and TMPDIR), over the limit of {} (--max-disk); protocheck killed it",
            format_size(used),
            format_size(cap)
        ),
    }
}

/// The limit, if any, that this usage exceeds.
#[cfg(target_os = "linux")]
fn over_limit(limits: &ResourceLimits, processes: usize, cpu: Duration) -> Option<LimitHit> {
    if let Some(cap) = limits.processes
        && processes > cap
    {
        return Some(LimitHit {
            kind: LimitKind::Processes,
            message: format!(
                "the bot had {processes} processes and threads alive at once, over the limit of {cap} (--max-processes; the kernel counts each thread as a task); protocheck killed them all"
            ),
        });
    }
    if let Some(limit) = limits.cpu
        && cpu > limit
    {
        return Some(LimitHit {
            kind: LimitKind::Cpu,
            message: format!(
                "the bot used {} of CPU time, over the limit of {} per scenario (--cpu-limit); protocheck killed it",
                humantime::format_duration(Duration::from_millis(cpu.as_millis() as u64)),
                humantime::format_duration(limit)
            ),
        });
    }
    None
}

/// A limit that the way the bot ended points to, when the monitor did not
/// catch one: SIGXCPU is RLIMIT_CPU's own signal; a failure near the
/// address-space limit, or with an out-of-memory message on stderr, is the
/// memory limit.
pub fn limit_from_exit(
    watch: &Watch,
    status: super::ExitStatus,
    stderr_tail: &str,
) -> Option<LimitHit> {
    if status == super::ExitStatus::Signal(libc::SIGXFSZ)
        && let Some(disk) = &watch.disk
    {
        return Some(LimitHit {
            kind: LimitKind::Disk,
            message: format!(
                "the bot was killed by SIGXFSZ: it wrote a file past the limit of {} (--max-disk)",
                format_size(disk.cap)
            ),
        });
    }
    if status == super::ExitStatus::Signal(libc::SIGXCPU) {
        let limit = watch
            .limits
            .cpu
            .map(|d| humantime::format_duration(d).to_string())
            .unwrap_or_else(|| "the inherited limit".into());
        return Some(LimitHit {
            kind: LimitKind::Cpu,
            message: format!(
                "the bot was killed by SIGXCPU: it used up its CPU time limit ({limit}, --cpu-limit)"
            ),
        });
    }
    let memory = watch.limits.memory?;
    if status.success() {
        return None;
    }
    let peak = watch.peak_memory();
    // Within 1/64 of the limit (at least 16 MiB): a JVM sizes its heap by
    // RLIMIT_AS and sits at about 5/6 of it from the start, so "close to the
    // limit" must be really close to count as evidence.
    let near_limit = peak.saturating_add((memory / 64).max(16 << 20)) >= memory;
    let says_so = super::limits::mentions_out_of_memory(stderr_tail);
    if !(near_limit || says_so) {
        return None;
    }
    let evidence = if near_limit {
        format!("its address space reached {}", format_size(peak))
    } else {
        "its stderr says an allocation failed".to_string()
    };
    Some(LimitHit {
        kind: LimitKind::Memory,
        message: format!(
            "the bot ran out of memory and ended ({status}): {evidence}; protocheck limits each bot process to {} of address space (--memory-limit, RLIMIT_AS)",
            format_size(memory)
        ),
    })
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
    fn usage_over_a_limit_names_that_limit() {
        let limits = ResourceLimits {
            memory: None,
            cpu: Some(Duration::from_secs(1)),
            processes: Some(4),
        };
        assert_eq!(over_limit(&limits, 4, Duration::from_millis(900)), None);
        let hit = over_limit(&limits, 5, Duration::ZERO).unwrap();
        assert_eq!(hit.kind, LimitKind::Processes);
        assert!(hit.message.contains("--max-processes"), "{}", hit.message);
        let hit = over_limit(&limits, 1, Duration::from_millis(1500)).unwrap();
        assert_eq!(hit.kind, LimitKind::Cpu);
        assert!(hit.message.contains("--cpu-limit"), "{}", hit.message);
    }

    #[test]
    fn exits_point_to_the_cpu_and_memory_limits() {
        let watch = Watch::new("t.1".into(), ResourceLimits::default(), None);
        let xcpu = super::super::ExitStatus::Signal(libc::SIGXCPU);
        assert_eq!(
            limit_from_exit(&watch, xcpu, "").unwrap().kind,
            LimitKind::Cpu
        );
        let abort = super::super::ExitStatus::Signal(libc::SIGABRT);
        assert_eq!(limit_from_exit(&watch, abort, "segfault"), None);
        let oom = limit_from_exit(&watch, abort, "memory allocation of 8 bytes failed").unwrap();
        assert_eq!(oom.kind, LimitKind::Memory);
        // Address space near the limit counts only when really near it.
        let jvm_like = Watch::new("t.2".into(), ResourceLimits::default(), None);
        jvm_like.peak_memory.store(
            super::super::limits::DEFAULT_MEMORY / 6 * 5,
            Ordering::Relaxed,
        );
        assert_eq!(limit_from_exit(&jvm_like, abort, ""), None);
        jvm_like.peak_memory.store(
            super::super::limits::DEFAULT_MEMORY - (8 << 20),
            Ordering::Relaxed,
        );
        assert_eq!(
            limit_from_exit(&jvm_like, abort, "").unwrap().kind,
            LimitKind::Memory
        );
        // A clean exit is never a limit, whatever stderr says.
        let clean = super::super::ExitStatus::Code(0);
        assert_eq!(limit_from_exit(&watch, clean, "out of memory"), None);
    }

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
