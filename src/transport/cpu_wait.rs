//! How long a bot's tasks were ready to run but waited for a CPU, so that a
//! reply can be timed as the bot would have needed on an idle machine.
//!
//! On a loaded machine (a course grading hundreds of bots side by side, a
//! CI runner shared with other jobs) a bot that needs 4 s of computing may
//! take 14 s of wall time to answer: the rest it spent in the run queue,
//! through no fault of its own. Linux counts that time per task in
//! `/proc/<pid>/task/<tid>/schedstat` (second field: nanoseconds spent
//! runnable but not running). Elsewhere it cannot be read, and callers judge
//! by wall time alone.

/// The scheduler's counters of one task (a thread of one of the bot's
/// processes), in nanoseconds since the task started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskTimes {
    /// Kernel thread id.
    pub tid: i32,
    /// Time spent running on a CPU.
    pub ran_ns: u64,
    /// Time spent ready to run, waiting for a CPU. The kernel adds a wait
    /// when it ends, so a task queued right now has its current wait only
    /// in [`TaskTimes::runnable`].
    pub waited_ns: u64,
    /// How many times the scheduler put the task on a CPU (0 on kernels
    /// that show `schedstat` without keeping it).
    pub runs: u64,
    /// Running or ready to run (`R`) at the look.
    pub runnable: bool,
}

/// The counters of every task of the process tree rooted at `pid` (the bot
/// and what it started). `None`: they cannot be read here (another OS, a
/// kernel without scheduler statistics, the bot already gone).
pub fn sample(pid: i32) -> Option<Vec<TaskTimes>> {
    LOOKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    imp::sample(pid)
}

/// How many samples this process has taken, for the bench that prices the
/// measure (`cargo bench --bench timing`).
static LOOKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub fn looks() -> u64 {
    LOOKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// How long the busiest task waited for a CPU, given each task's `(ran,
/// waited)` nanoseconds over the same span: the task that ran and waited
/// the most is the one whose wait held the bot back (a thread that mostly
/// waited but hardly ran is not). The part of a bot's wall time that a
/// loaded machine, not the bot, spent: one rule for a reply's own time and
/// a client's time to connect.
pub fn busiest_wait(tasks: impl IntoIterator<Item = (u64, u64)>) -> std::time::Duration {
    let waited = tasks
        .into_iter()
        .max_by_key(|&(ran, waited)| ran + waited)
        .map_or(0, |(_, waited)| waited);
    std::time::Duration::from_nanos(waited)
}

/// Parse a `schedstat` file: `<ran ns> <waited ns> <timeslices>`.
pub fn parse_schedstat(tid: i32, text: &str) -> Option<TaskTimes> {
    let mut fields = text.split_whitespace();
    let ran_ns = fields.next()?.parse().ok()?;
    let waited_ns = fields.next()?.parse().ok()?;
    let runs = fields.next()?.parse().ok()?;
    Some(TaskTimes {
        tid,
        ran_ns,
        waited_ns,
        runs,
        runnable: false,
    })
}

/// Whether a task's `stat` text says it is running or ready to run. The
/// command name may hold spaces and parentheses: the state follows the last
/// `)`.
pub fn stat_is_runnable(text: &str) -> bool {
    text.rfind(')')
        .and_then(|i| text[i + 1..].split_whitespace().next())
        == Some("R")
}

/// Whether protocheck's own thread `tid` is running or ready to run: its
/// reader of the bot's output has not taken everything yet.
pub fn own_thread_runnable(tid: i32) -> bool {
    #[cfg(target_os = "linux")]
    {
        std::fs::read_to_string(format!("/proc/self/task/{tid}/stat"))
            .is_ok_and(|t| stat_is_runnable(&t))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = tid;
        false
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{TaskTimes, parse_schedstat, stat_is_runnable};
    use std::fs;

    /// More processes than this is a fork bomb, not a bot to time.
    const MAX_PROCESSES: usize = 256;

    pub fn sample(pid: i32) -> Option<Vec<TaskTimes>> {
        let mut out = Vec::new();
        let mut stack = vec![pid];
        let mut seen = 0usize;
        while let Some(p) = stack.pop() {
            seen += 1;
            if seen > MAX_PROCESSES {
                break;
            }
            let Ok(tasks) = fs::read_dir(format!("/proc/{p}/task")) else {
                if p == pid {
                    return None;
                }
                continue; // a child that ended meanwhile
            };
            for entry in tasks.flatten() {
                let Some(tid) = entry.file_name().to_str().and_then(|t| t.parse().ok()) else {
                    continue;
                };
                let path = entry.path();
                match fs::read_to_string(path.join("schedstat")) {
                    Ok(text) => out.extend(parse_schedstat(tid, &text).map(|mut t| {
                        t.runnable = fs::read_to_string(path.join("stat"))
                            .is_ok_and(|s| stat_is_runnable(&s));
                        t
                    })),
                    // No scheduler statistics in this kernel: nothing to
                    // measure, for any task.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound && p == pid => {
                        return None;
                    }
                    Err(_) => {}
                }
                if let Ok(children) = fs::read_to_string(path.join("children")) {
                    stack.extend(
                        children
                            .split_whitespace()
                            .filter_map(|c| c.parse::<i32>().ok()),
                    );
                }
            }
        }
        Some(out)
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::TaskTimes;

    /// Not measurable here: replies are timed by the wall clock.
    pub fn sample(_pid: i32) -> Option<Vec<TaskTimes>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedstat_fields_are_ran_then_waited_then_runs() {
        assert_eq!(
            parse_schedstat(7, "287479 76894 1\n"),
            Some(TaskTimes {
                tid: 7,
                ran_ns: 287_479,
                waited_ns: 76_894,
                runs: 1,
                runnable: false
            })
        );
        assert_eq!(parse_schedstat(7, "12"), None);
        assert_eq!(parse_schedstat(7, "12 34"), None);
        assert_eq!(parse_schedstat(7, "x y z"), None);
    }

    #[test]
    fn the_busiest_task_gives_the_wait() {
        let task = |tid, ran_ns, waited_ns| TaskTimes {
            tid,
            ran_ns,
            waited_ns,
            runs: 1,
            runnable: false,
        };
        // The task that ran and waited the most is the one whose wait held
        // the bot back; a thread that mostly waited but hardly ran is not.
        let tasks = [task(1, 4_000, 6_000), task(2, 100, 9_000), task(3, 50, 10)];
        let spans = tasks.iter().map(|t| (t.ran_ns, t.waited_ns));
        assert_eq!(busiest_wait(spans), std::time::Duration::from_nanos(6_000));
        assert_eq!(busiest_wait([]), std::time::Duration::ZERO);
    }

    #[test]
    fn the_state_follows_the_last_parenthesis() {
        assert!(stat_is_runnable("12 (a) b) R 1 12"));
        assert!(!stat_is_runnable("12 (R) S 1 12"));
        assert!(!stat_is_runnable("garbage"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_running_process_tree_is_sampled_with_its_children() {
        use std::os::unix::process::CommandExt;
        let (mut child, _known) = crate::transport::guard::KnownChild::spawn(
            std::process::Command::new("sh")
                .args(["-c", "sleep 5 & wait"])
                .process_group(0),
        );
        let pid = child.id() as i32;
        let mut tasks = 0;
        for _ in 0..200 {
            match sample(pid) {
                None => break, // no scheduler statistics on this kernel
                Some(t) if t.len() >= 2 => {
                    tasks = t.len();
                    break;
                }
                Some(_) => std::thread::sleep(std::time::Duration::from_millis(5)),
            }
        }
        // SAFETY: killpg has no memory-safety preconditions.
        unsafe { libc::killpg(pid, libc::SIGKILL) };
        child.wait().unwrap();
        if std::path::Path::new("/proc/self/schedstat").exists() {
            assert!(tasks >= 2, "the shell and its sleep child: {tasks}");
        }
        assert_eq!(sample(pid), None, "a reaped process cannot be sampled");
    }
}
