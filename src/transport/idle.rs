//! Whether a bot is *provably idle*: it has read everything protocheck sent
//! and every thread of every process it started sleeps in a read of the
//! stdin pipe protocheck holds (or, for a wrapper, in a wait for its child).
//! Such a bot can do nothing until protocheck writes again: it will never
//! answer a due reply, and it cannot write out of turn any more.
//!
//! Linux only, from `/proc`: each task's `stat` (state, CPU time) and
//! `syscall` (the system call it sleeps in, and its arguments). Where that
//! cannot be read (another OS, a restricted `/proc`, a bot that waits with
//! `poll`/`epoll`, a JVM with its helper threads), the answer is "unknown"
//! and the caller falls back to its timeouts and windows.

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Counters shared with the transport threads.
#[derive(Debug, Default)]
pub struct Progress {
    /// Bytes handed to the writer thread.
    pub queued: AtomicU64,
    /// Bytes the writer thread has written into the bot's stdin pipe.
    pub written: AtomicU64,
    /// The kernel thread id of protocheck's stdout reader for this bot (0:
    /// not known yet).
    pub reader_tid: AtomicI32,
    /// When the writer thread last finished writing into the bot's input:
    /// a listening window gives the bot its time from then, not from when
    /// protocheck queued the message (a busy machine may keep the writer
    /// waiting for a CPU in between).
    pub delivered_at: Mutex<Option<Instant>>,
}

/// One look at the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Every thread sleeps reading the drained stdin pipe (or waiting for a
    /// child), protocheck's input to it is all written, and protocheck's
    /// reader has taken everything the bot wrote.
    pub idle: bool,
    /// User plus system CPU time of all the bot's tasks, in clock ticks.
    pub cpu: u64,
    /// How many tasks (threads of all its processes) were looked at.
    pub tasks: usize,
}

/// Looks at one bot process tree.
#[derive(Clone, Debug)]
pub struct IdleProbe {
    pid: i32,
    /// `pipe:[inode]` of the bot's stdin pipe, as `/proc/*/fd` links show it.
    stdin_link: Option<String>,
    progress: Arc<Progress>,
}

impl IdleProbe {
    pub fn new(pid: i32, stdin_inode: Option<u64>, progress: Arc<Progress>) -> IdleProbe {
        IdleProbe {
            pid,
            stdin_link: stdin_inode.map(|i| format!("pipe:[{i}]")),
            progress,
        }
    }

    /// Look now. `None`: this cannot be told here.
    pub fn sample(&self) -> Option<Sample> {
        let link = self.stdin_link.as_deref()?;
        if self.progress.queued.load(Ordering::SeqCst)
            != self.progress.written.load(Ordering::SeqCst)
        {
            // Input is still on its way: the bot is about to be woken.
            return Some(Sample {
                idle: false,
                cpu: 0,
                tasks: 0,
            });
        }
        linux::sample(
            self.pid,
            link,
            self.progress.reader_tid.load(Ordering::SeqCst),
        )
    }
}

/// The calling thread's kernel id, for [`Progress::reader_tid`].
pub fn current_tid() -> i32 {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no preconditions.
    unsafe {
        libc::gettid()
    }
    #[cfg(not(target_os = "linux"))]
    0
}

#[cfg(target_os = "linux")]
mod linux {
    use super::Sample;
    use std::fs;

    /// System call numbers of the calls a provably idle task may sleep in.
    #[cfg(target_arch = "x86_64")]
    const READS: &[i64] = &[0, 19]; // read, readv
    #[cfg(target_arch = "x86_64")]
    const WAITS: &[i64] = &[61, 247]; // wait4, waitid
    #[cfg(target_arch = "aarch64")]
    const READS: &[i64] = &[63, 65];
    #[cfg(target_arch = "aarch64")]
    const WAITS: &[i64] = &[260, 95];
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    const READS: &[i64] = &[];
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    const WAITS: &[i64] = &[];

    /// How one task is doing.
    enum Task {
        /// Asleep in a read of the stdin pipe, or in a wait for a child.
        Blocked,
        /// Anything else: running, or asleep in a call that can end by itself.
        Busy,
    }

    pub fn sample(pid: i32, stdin_link: &str, reader_tid: i32) -> Option<Sample> {
        if READS.is_empty() {
            return None;
        }
        if reader_tid <= 0 {
            // protocheck's reader thread has not started yet (a look right
            // after the spawn): not idle *yet*, rather than "cannot be told",
            // which would give up on the proof for the whole window.
            return Some(Sample {
                idle: false,
                cpu: 0,
                tasks: 0,
            });
        }
        // protocheck's own reader must be asleep in its read, so everything
        // the bot wrote before it went idle is already in the event queue.
        let reader = format!("/proc/self/task/{reader_tid}");
        if !std::path::Path::new(&reader).exists() {
            // The reader has ended: the bot's output reached end-of-file
            // (every process holding it closed it or died), so nothing more
            // can arrive, whatever is left of the bot.
            return Some(Sample {
                idle: true,
                cpu: 0,
                tasks: 1,
            });
        }
        let reader_idle = matches!(task(&reader, &[], None)?, (Task::Blocked, _));
        let mut idle = reader_idle;
        let mut cpu = 0u64;
        let mut count = 0usize;
        let mut stack = vec![pid];
        let mut seen = 0usize;
        while let Some(p) = stack.pop() {
            seen += 1;
            if seen > 256 {
                return None; // a fork bomb is not worth proving anything about
            }
            let dir = format!("/proc/{p}/task");
            let Ok(tasks) = fs::read_dir(&dir) else {
                if p != pid {
                    continue; // a child that ended meanwhile does nothing
                }
                return None;
            };
            for entry in tasks.flatten() {
                let path = entry.path();
                let path = path.to_str()?;
                let (state, ticks) = task(path, READS, Some((p, stdin_link)))?;
                cpu += ticks;
                count += 1;
                if matches!(state, Task::Busy) {
                    idle = false;
                }
                if let Ok(children) = fs::read_to_string(format!("{path}/children")) {
                    stack.extend(
                        children
                            .split_whitespace()
                            .filter_map(|c| c.parse::<i32>().ok()),
                    );
                }
            }
        }
        Some(Sample {
            idle,
            cpu,
            tasks: count,
        })
    }

    /// The state and CPU ticks of one task (`/proc/<pid>/task/<tid>`).
    /// `stdin` (process id, pipe link): a read counts as blocked only on a
    /// descriptor that is this pipe; without it, any read on any descriptor
    /// counts (protocheck's own reader thread).
    fn task(path: &str, reads: &[i64], stdin: Option<(i32, &str)>) -> Option<(Task, u64)> {
        let stat = fs::read_to_string(format!("{path}/stat")).ok()?;
        // The command name may hold spaces and parentheses: fields start
        // after the last `)`.
        let rest = &stat[stat.rfind(')')? + 1..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let state = *fields.first()?;
        let utime: u64 = fields.get(11)?.parse().ok()?;
        let stime: u64 = fields.get(12)?.parse().ok()?;
        let ticks = utime + stime;
        if state == "Z" || state == "X" {
            return Some((Task::Blocked, ticks)); // a dead task does nothing
        }
        if state != "S" {
            return Some((Task::Busy, ticks));
        }
        let syscall = fs::read_to_string(format!("{path}/syscall")).ok()?;
        let mut words = syscall.split_whitespace();
        let Some(number) = words.next().and_then(|w| w.parse::<i64>().ok()) else {
            return Some((Task::Busy, ticks)); // "running", or not in a call
        };
        let reads = if reads.is_empty() { READS } else { reads };
        if WAITS.contains(&number) && stdin.is_some() {
            return Some((Task::Blocked, ticks));
        }
        if !reads.contains(&number) {
            return Some((Task::Busy, ticks));
        }
        let Some((pid, link)) = stdin else {
            return Some((Task::Blocked, ticks));
        };
        let fd = words
            .next()
            .and_then(|w| i64::from_str_radix(w.trim_start_matches("0x"), 16).ok())?;
        let target = fs::read_link(format!("/proc/{pid}/fd/{fd}")).ok()?;
        if target.to_str() == Some(link) {
            Some((Task::Blocked, ticks))
        } else {
            Some((Task::Busy, ticks))
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod linux {
    use super::Sample;

    /// Not provable here: callers fall back to their timeouts.
    pub fn sample(_pid: i32, _stdin_link: &str, _reader_tid: i32) -> Option<Sample> {
        None
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// `program args` with piped stdin and stdout, and a probe for it.
    fn spawn_probed(program: &str, args: &[&str]) -> (std::process::Child, IdleProbe) {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let ino = stdin_inode(&child);
        let probe = probe_for(&mut child, ino);
        (child, probe)
    }

    /// A probe for `child`, with a real reader thread of its stdout (which
    /// must be piped) as protocheck's would be, asleep in its read.
    fn probe_for(child: &mut std::process::Child, stdin_ino: u64) -> IdleProbe {
        use std::io::Read;
        let progress = Arc::new(Progress::default());
        let mut stdout = child.stdout.take().expect("piped stdout");
        let shared = Arc::clone(&progress);
        std::thread::spawn(move || {
            shared.reader_tid.store(current_tid(), Ordering::SeqCst);
            let mut sink = Vec::new();
            let _ = stdout.read_to_end(&mut sink);
        });
        while progress.reader_tid.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        IdleProbe::new(child.id() as i32, Some(stdin_ino), progress)
    }

    fn stdin_inode(child: &std::process::Child) -> u64 {
        use std::os::fd::AsRawFd;
        let fd = child.stdin.as_ref().unwrap().as_raw_fd();
        std::fs::metadata(format!("/proc/self/fd/{fd}"))
            .unwrap()
            .ino()
    }

    fn settles_idle(probe: &IdleProbe) -> Option<bool> {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let s = probe.sample()?;
            if s.idle || Instant::now() > until {
                return Some(s.idle);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_reader_of_stdin_is_idle_and_a_sleeper_is_not() {
        let (mut cat, probe) = spawn_probed("cat", &[]);
        if let Some(idle) = settles_idle(&probe) {
            assert!(idle, "cat blocked on its stdin is idle");
        }
        cat.stdin.as_mut().unwrap().write_all(b"x\n").unwrap();
        cat.kill().unwrap();
        cat.wait().unwrap();

        let (mut sleeper, probe) = spawn_probed("sleep", &["30"]);
        std::thread::sleep(Duration::from_millis(100));
        if let Some(s) = probe.sample() {
            assert!(!s.idle, "a sleeping process is not idle");
        }
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
    }

    #[test]
    fn unwritten_input_means_not_idle() {
        let (mut cat, probe) = spawn_probed("cat", &[]);
        probe.progress.queued.store(3, Ordering::SeqCst);
        assert_eq!(probe.sample().map(|s| s.idle), Some(false));
        cat.kill().unwrap();
        cat.wait().unwrap();
    }

    #[test]
    fn once_the_reader_has_reached_the_end_of_the_output_nothing_more_can_come() {
        let (mut cat, probe) = spawn_probed("cat", &[]);
        drop(cat.stdin.take()); // cat reads EOF, exits, its stdout ends
        cat.wait().unwrap();
        let until = Instant::now() + Duration::from_secs(5);
        let reader = format!(
            "/proc/self/task/{}",
            probe.progress.reader_tid.load(Ordering::SeqCst)
        );
        while std::path::Path::new(&reader).exists() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
        let s = probe.sample().expect("told");
        assert!(s.idle, "the reader has ended: {s:?}");
    }
}
