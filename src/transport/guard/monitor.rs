//! The monitor: a thread that looks at every live bot's processes now and
//! then and kills a bot over `--max-processes`, `--cpu-limit` or
//! `--max-disk`; and the limit the way a bot ended points to when the
//! monitor caught none (`limit_from_exit`). It attributes processes to
//! bots as the sweep does (`super::classify`).

use crate::transport::exit_status::ExitStatus;
use crate::transport::limits::{LimitHit, LimitKind, format_size, mentions_out_of_memory};
use crate::transport::live::Watch;
#[cfg(target_os = "linux")]
use {
    super::{Owner, classify},
    crate::transport::limits::ResourceLimits,
    crate::transport::live::lock_live,
    crate::transport::procfs,
    std::sync::Arc,
    std::sync::atomic::Ordering,
    std::time::Duration,
};

/// How often the monitor looks at the bots' processes (at most).
#[cfg(target_os = "linux")]
const MONITOR_PERIOD: Duration = Duration::from_millis(100);

/// Start the monitor thread once (Linux; elsewhere only the rlimits apply).
pub(in crate::transport) fn start_monitor_once() {
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
    let ticks = procfs::ticks_per_second();
    let mut period = MONITOR_PERIOD;
    let mut last_disk_look = std::time::Instant::now();
    loop {
        std::thread::sleep(period);
        let live = lock_live();
        if live.groups.is_empty() {
            continue;
        }
        let started = thread_cpu_time();
        let snapshot = procfs::snapshot();
        let owned = classify(&live.groups, &snapshot);
        for (&bot, watch) in &live.groups {
            let mine: Vec<&procfs::ProcInfo> = owned
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
                if let Some(peak) = procfs::vm_peak(pid) {
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
pub fn limit_from_exit(watch: &Watch, status: ExitStatus, stderr_tail: &str) -> Option<LimitHit> {
    if status == ExitStatus::Signal(libc::SIGXFSZ)
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
    if status == ExitStatus::Signal(libc::SIGXCPU) {
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
    let says_so = mentions_out_of_memory(stderr_tail);
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
        let xcpu = ExitStatus::Signal(libc::SIGXCPU);
        assert_eq!(
            limit_from_exit(&watch, xcpu, "").unwrap().kind,
            LimitKind::Cpu
        );
        let abort = ExitStatus::Signal(libc::SIGABRT);
        assert_eq!(limit_from_exit(&watch, abort, "segfault"), None);
        let oom = limit_from_exit(&watch, abort, "memory allocation of 8 bytes failed").unwrap();
        assert_eq!(oom.kind, LimitKind::Memory);
        // Address space near the limit counts only when really near it.
        let jvm_like = Watch::new("t.2".into(), ResourceLimits::default(), None);
        jvm_like.peak_memory.store(
            crate::transport::limits::DEFAULT_MEMORY / 6 * 5,
            Ordering::Relaxed,
        );
        assert_eq!(limit_from_exit(&jvm_like, abort, ""), None);
        jvm_like.peak_memory.store(
            crate::transport::limits::DEFAULT_MEMORY - (8 << 20),
            Ordering::Relaxed,
        );
        assert_eq!(
            limit_from_exit(&jvm_like, abort, "").unwrap().kind,
            LimitKind::Memory
        );
        // A clean exit is never a limit, whatever stderr says.
        let clean = ExitStatus::Code(0);
        assert_eq!(limit_from_exit(&watch, clean, "out of memory"), None);
    }
}
