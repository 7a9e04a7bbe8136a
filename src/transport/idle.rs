//! Whether a bot is *provably idle*: it has read everything protocheck sent
//! and every thread of every process it started sleeps where only
//! protocheck (or another of its own threads, all asleep too) can wake it:
//! in a read of the stdin pipe protocheck holds, in a wait for its child, or
//! in a wait without a timeout on a private futex or on its own pipes,
//! eventfds and epoll sets (the JVM's, GHC's, Node's, Python's threads; see
//! [`waits`]). Such a bot can do nothing until protocheck writes again: it
//! will never answer a due reply, and it cannot write out of turn any more.
//!
//! Linux only, from `/proc`: each task's `stat` (state, CPU time),
//! `syscall` (the system call it sleeps in, and its arguments), `schedstat`
//! (how often and how long the scheduler ran it), and each process's
//! signals and timers. Where that cannot be read (another OS, a restricted
//! `/proc`) or a task may wake by itself (a timeout, a socket, a timer
//! signal it catches), the answer is "not idle" or "unknown" and the caller
//! falls back to its timeouts and windows.
//!
//! One look is not a proof: it reads the tasks one after another, and a
//! task may run between two reads (the bot writes a line after protocheck's
//! reader was seen asleep). Two looks are, when every task was asleep in
//! its read at both and the scheduler ran none of them in between
//! ([`Schedule`]): then at the end of the first look all of them were
//! asleep at once, with nothing left to read, and only protocheck can wake
//! them. Without `schedstat` the caller spaces its two looks in time and
//! compares CPU ticks instead.

#[cfg(target_os = "linux")]
pub(crate) mod waits;

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

impl Progress {
    /// `bytes` more are in the bot's input pipe, as of now.
    pub fn delivered(&self, bytes: u64) {
        if let Ok(mut at) = self.delivered_at.lock() {
            *at = Some(Instant::now());
        }
        self.written.fetch_add(bytes, Ordering::SeqCst);
    }
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
    /// What the scheduler did with those tasks and protocheck's reader so
    /// far; `None` where `schedstat` cannot be read. Two idle looks with
    /// the same schedule prove the bot idle, however close together.
    pub schedule: Option<Schedule>,
}

/// The scheduler's counters summed over a set of tasks, read after each
/// task's state. Every counter only grows while its task lives, and a task
/// that is scheduled in adds to `runs` (and to `ran_ns` once it stops), so
/// equal sums over the same tasks mean none of them ran in between; a task
/// that came or went changes `tasks` or `tids`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    pub tasks: u64,
    pub tids: u64,
    pub ran_ns: u64,
    pub runs: u64,
}

impl Schedule {
    /// Add one task's `schedstat` text (`<ran ns> <waited ns> <runs>`,
    /// parsed by [`super::cpu_wait::parse_schedstat`]). `None`: unreadable,
    /// or counters that are not kept (a kernel without scheduler statistics
    /// shows `0 0 0` for a task that has run).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    fn add(mut self, tid: i32, schedstat: &str) -> Option<Schedule> {
        let times = super::cpu_wait::parse_schedstat(tid, schedstat)?;
        if times.runs == 0 {
            return None; // a sleeping task has run at least once
        }
        self.tasks += 1;
        self.tids = self.tids.wrapping_add(tid as u64);
        self.ran_ns = self.ran_ns.wrapping_add(times.ran_ns);
        self.runs = self.runs.wrapping_add(times.runs);
        Some(self)
    }
}

/// Looks at one bot process tree.
#[derive(Clone, Debug)]
pub struct IdleProbe {
    pid: i32,
    /// `pipe:[inode]` of the bot's stdin pipe, as `/proc/*/fd` links show it.
    stdin_link: Option<String>,
    progress: Arc<Progress>,
    /// The /proc files of the last look, kept open for the next.
    files: Arc<Mutex<linux::OpenFiles>>,
}

impl IdleProbe {
    pub fn new(pid: i32, stdin_inode: Option<u64>, progress: Arc<Progress>) -> IdleProbe {
        IdleProbe {
            pid,
            stdin_link: stdin_inode.map(|i| format!("pipe:[{i}]")),
            progress,
            files: Arc::default(),
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
                schedule: None,
            });
        }
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        linux::sample(
            self.pid,
            link,
            self.progress.reader_tid.load(Ordering::SeqCst),
            &mut files,
        )
    }
}

/// The calling thread's kernel id, for [`Progress::reader_tid`].
pub fn current_tid() -> i32 {
    #[cfg(target_os = "linux")]
    // The system call, not glibc's gettid(): that wrapper is glibc 2.30's,
    // and the wheel must load on glibc 2.17 (manylinux_2_17, docs/install.md).
    // SAFETY: gettid has no preconditions and cannot fail.
    unsafe {
        libc::syscall(libc::SYS_gettid) as i32
    }
    #[cfg(not(target_os = "linux"))]
    0
}

#[cfg(target_os = "linux")]
mod linux {
    use super::{Sample, Schedule};
    pub use crate::transport::procfs::OpenFiles;
    use std::fs;

    use super::waits::{self, Wait};

    /// How one task is doing.
    enum Task {
        /// Asleep in a read of the stdin pipe, or in a wait for a child.
        Blocked,
        /// Anything else: running, or asleep in a call that can end by itself.
        Busy,
        /// Ended and reaped since it was listed (or, for protocheck's
        /// reader, since it was started).
        Gone,
    }

    pub fn sample(
        pid: i32,
        stdin_link: &str,
        reader_tid: i32,
        files: &mut OpenFiles,
    ) -> Option<Sample> {
        if !waits::supported() {
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
                schedule: None,
            });
        }
        files.begin_look();
        // protocheck's own reader must be asleep in its read, so everything
        // the bot wrote before it went idle is already in the event queue.
        let (reader_state, reader_counters) = own_reader(files, reader_tid)?;
        if matches!(reader_state, Task::Gone) {
            // The reader has ended: the bot's output reached end-of-file
            // (every process holding it closed it or died), so nothing more
            // can arrive, whatever is left of the bot.
            return Some(Sample {
                idle: true,
                cpu: 0,
                tasks: 1,
                schedule: None,
            });
        }
        let mut idle = matches!(reader_state, Task::Blocked);
        let mut schedule = reader_counters.and_then(|s| Schedule::default().add(reader_tid, &s));
        let mut cpu = 0u64;
        let mut count = 0usize;
        let mut stack = vec![pid];
        let mut seen = 0usize;
        while let Some(p) = stack.pop() {
            seen += 1;
            if seen > 256 {
                return None; // a fork bomb is not worth proving anything about
            }
            // The main thread first: while it lives as its process's only
            // thread, the process's task folder need not be listed. Whether
            // it is a JVM is found out once per look.
            let mut jvm = None;
            let leader = task(files, p, p, stdin_link, &mut jvm)?;
            if matches!(leader.state, Task::Gone) {
                if p != pid {
                    continue; // a child that ended meanwhile does nothing
                }
                return None;
            }
            let mut looks = vec![(p, leader)];
            if !looks[0].1.alone {
                let Ok(listed) = fs::read_dir(format!("/proc/{p}/task")) else {
                    return None;
                };
                for entry in listed.flatten() {
                    let tid: i32 = entry.file_name().to_str()?.parse().ok()?;
                    if tid != p {
                        looks.push((tid, task(files, p, tid, stdin_link, &mut jvm)?));
                    }
                }
            }
            let asleep = looks.iter().all(|(_, l)| matches!(l.state, Task::Blocked));
            if idle && asleep && signals_quiet(files, p, ran_mark(&looks)) != Some(true) {
                idle = false; // a timer may run a handler of the bot's
            }
            for (tid, look) in looks {
                schedule = match (schedule, look.counters) {
                    (Some(sum), Some(text)) => sum.add(tid, &text),
                    _ => None,
                };
                cpu += look.ticks;
                count += 1;
                if !matches!(look.state, Task::Blocked) {
                    idle = false; // busy, or a thread that ended since listed
                }
                // Without `children` (a kernel without CONFIG_PROC_CHILDREN)
                // the bot's child processes cannot be seen, and a wrapper
                // asleep waiting for one would look idle: nothing is proved.
                let children = files.read(&format!("/proc/{p}/task/{tid}/children")).ok()?;
                stack.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<i32>().ok()),
                );
            }
        }
        Some(Sample {
            idle,
            cpu,
            tasks: count,
            schedule,
        })
    }

    /// protocheck's reader thread: asleep in a read (of any descriptor), and
    /// its scheduler counters. The `syscall` file alone tells: it shows
    /// `running` for a task that runs or was woken and waits for a CPU.
    fn own_reader(files: &mut OpenFiles, tid: i32) -> Option<(Task, Option<String>)> {
        let path = format!("/proc/self/task/{tid}");
        let syscall = match files.read(&format!("{path}/syscall")) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some((Task::Gone, None)),
            Err(_) => return None,
        };
        let number = syscall.split_whitespace().next()?.parse::<i64>().ok();
        if number.is_some_and(waits::is_read) {
            let counters = files.read(&format!("{path}/schedstat")).ok();
            Some((Task::Blocked, counters))
        } else {
            Some((Task::Busy, None))
        }
    }

    /// One task as one look saw it.
    struct TaskLook {
        state: Task,
        /// User plus system CPU time, in clock ticks.
        ticks: u64,
        /// The `schedstat` text of a blocked task, read after its state
        /// (see [`super::Schedule`]).
        counters: Option<String>,
        /// A live main thread that is its process's only thread.
        alone: bool,
    }

    /// Task `tid` of process `pid` (`/proc/<pid>/task/<tid>`): blocked when
    /// asleep in a read of the pipe `stdin_link`, in a wait for a child, in
    /// a wait only the bot's own tasks or protocheck can end, or (a JVM's
    /// service thread) in a timed futex wait: see [`waits`].
    fn task(
        files: &mut OpenFiles,
        pid: i32,
        tid: i32,
        stdin_link: &str,
        jvm: &mut Option<bool>,
    ) -> Option<TaskLook> {
        let path = format!("/proc/{pid}/task/{tid}");
        let stat = match files.read(&format!("{path}/stat")) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Some(TaskLook {
                    state: Task::Gone,
                    ticks: 0,
                    counters: None,
                    alone: false,
                });
            }
            Err(_) => return None,
        };
        // The command name may hold spaces and parentheses: fields start
        // after the last `)`; field n is fields[n - 3].
        let rest = &stat[stat.rfind(')')? + 1..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let state = *fields.first()?;
        let utime: u64 = fields.get(11)?.parse().ok()?;
        let stime: u64 = fields.get(12)?.parse().ok()?;
        let threads: u64 = fields.get(17)?.parse().ok()?;
        let ticks = utime + stime;
        let dead = state == "Z" || state == "X";
        // A main thread that ended leaves its process's other threads
        // running: only a live one that is alone spares the listing.
        let alone = tid == pid && !dead && threads == 1;
        let look = |state: Task, files: &mut OpenFiles| {
            let counters = match state {
                Task::Blocked => files.read(&format!("{path}/schedstat")).ok(),
                _ => None,
            };
            Some(TaskLook {
                state,
                ticks,
                counters,
                alone,
            })
        };
        if dead {
            return look(Task::Blocked, files); // a dead task does nothing
        }
        if state != "S" {
            return look(Task::Busy, files);
        }
        let syscall = files.read(&format!("{path}/syscall")).ok()?;
        let Some(call) = waits::parse_call(&syscall) else {
            return look(Task::Busy, files); // "running", or not in a call
        };
        let blocked = match waits::classify(files, pid, &call, stdin_link) {
            Wait::Input | Wait::Child | Wait::Quiet => true,
            // A JVM's service threads wake on timers and run only the
            // JVM's code (see `waits`); a bot's own thread with a timeout
            // may answer when it ends.
            Wait::Timed => {
                *jvm.get_or_insert_with(|| waits::is_jvm(pid))
                    && files
                        .read(&format!("{path}/comm"))
                        .is_ok_and(|c| waits::jvm_service_thread(&c))
            }
            Wait::Other => false,
        };
        look(if blocked { Task::Blocked } else { Task::Busy }, files)
    }

    /// Whether no kernel timer can run a signal handler of process `pid`
    /// (see [`waits::signals_quiet`]). `None`: its status is unreadable.
    /// Only the process itself changes its handlers and timers, so an
    /// answer found when its tasks' counters were `mark` holds while they
    /// still are (its `status` is the costliest file of a look).
    fn signals_quiet(files: &mut OpenFiles, pid: i32, mark: Option<u64>) -> Option<bool> {
        if let Some(mark) = mark
            && let Some(quiet) = files.signals_known(pid, mark)
        {
            return Some(quiet);
        }
        let status = files.read(&format!("/proc/{pid}/status")).ok()?;
        let timers = files.read(&format!("/proc/{pid}/timers")).ok();
        let quiet = waits::signals_quiet(&status, timers.as_deref());
        if let Some(mark) = mark {
            files.remember_signals(pid, mark, quiet);
        }
        Some(quiet)
    }

    /// A mark of what the scheduler did with one process's tasks (their
    /// counters, read before its signals): it changes once any of them
    /// runs. `None` where a task's counters are missing.
    fn ran_mark(looks: &[(i32, TaskLook)]) -> Option<u64> {
        let mut mark = 0u64;
        for (tid, look) in looks {
            let t = crate::transport::cpu_wait::parse_schedstat(*tid, look.counters.as_deref()?)?;
            for v in [*tid as u64, t.runs, t.ran_ns] {
                mark = mark.wrapping_mul(0x100_0000_01b3).wrapping_add(v);
            }
        }
        Some(mark)
    }
}

#[cfg(not(target_os = "linux"))]
mod linux {
    use super::Sample;

    /// Not provable here: callers fall back to their timeouts.
    pub fn sample(
        _pid: i32,
        _stdin_link: &str,
        _reader_tid: i32,
        _files: &mut OpenFiles,
    ) -> Option<Sample> {
        None
    }

    /// Nothing is kept open where nothing is read.
    #[derive(Debug, Default)]
    pub struct OpenFiles;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::transport::guard::KnownChild;
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// `program args` with piped stdin and stdout, and a probe for it.
    fn spawn_probed(program: &str, args: &[&str]) -> (std::process::Child, IdleProbe, KnownChild) {
        let (mut child, known) = KnownChild::spawn(
            Command::new(program)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped()),
        );
        let ino = stdin_inode(&child);
        let probe = probe_for(&mut child, ino);
        (child, probe, known)
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
        let (mut cat, probe, _known) = spawn_probed("cat", &[]);
        if let Some(idle) = settles_idle(&probe) {
            assert!(idle, "cat blocked on its stdin is idle");
        }
        cat.stdin.as_mut().unwrap().write_all(b"x\n").unwrap();
        cat.kill().unwrap();
        cat.wait().unwrap();

        let (mut sleeper, probe, _known) = spawn_probed("sleep", &["30"]);
        std::thread::sleep(Duration::from_millis(100));
        if let Some(s) = probe.sample() {
            assert!(!s.idle, "a sleeping process is not idle");
        }
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
    }

    #[test]
    fn scheduler_counters_add_up_and_unkept_ones_are_refused() {
        let one = Schedule::default().add(10, "1500 20 3\n").unwrap();
        let two = one.add(11, "500 0 1").unwrap();
        assert_eq!(
            two,
            Schedule {
                tasks: 2,
                tids: 21,
                ran_ns: 2000,
                runs: 4
            }
        );
        assert_eq!(one.add(12, "0 0 0"), None, "counters not kept");
        assert_eq!(one.add(12, "garbage"), None);
    }

    #[test]
    fn unwritten_input_means_not_idle() {
        let (mut cat, probe, _known) = spawn_probed("cat", &[]);
        probe.progress.queued.store(3, Ordering::SeqCst);
        assert_eq!(probe.sample().map(|s| s.idle), Some(false));
        cat.kill().unwrap();
        cat.wait().unwrap();
    }

    #[test]
    fn once_the_reader_has_reached_the_end_of_the_output_nothing_more_can_come() {
        let (mut cat, probe, _known) = spawn_probed("cat", &[]);
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
