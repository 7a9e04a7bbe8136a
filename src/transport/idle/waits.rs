//! Which system calls an idle task may sleep in, beyond a read of its
//! input: the waits of the runtimes courses use (a JVM's threads in `futex`,
//! GHC's I/O manager in `poll`/`epoll_wait`/`pselect6`, Node's event loop in
//! `epoll_pwait`, Python's threads in `futex`).
//!
//! A sleeping task can be woken by: the end of its call's timeout; another
//! task (a futex wake, a write to a pipe or an eventfd, a child's exit); a
//! kernel timer (a `timerfd`, a POSIX timer or `alarm` signal); the outside
//! world (a socket, a terminal, a file watch); protocheck (a write to its
//! input, the close of its input). A task is *blocked* here when only the
//! last two of its own tasks or protocheck can wake it: a wait without a
//! timeout, on a private futex or on descriptors that are pipes, eventfds,
//! disarmed timerfds or epoll sets of those (waited for input: a wait for
//! room in a pipe ends when a reader drains it, and protocheck's stderr
//! drain is not looked at). The caller then needs every task blocked with
//! none run between two looks (`idle::Schedule`), and the process's signals
//! quiet ([`signals_quiet`]).
//!
//! One kind of timed wait is accepted: the service threads of a HotSpot JVM
//! (`java`), which sleep with timeouts in futexes (the VM thread's
//! guaranteed safepoint, the periodic task thread's samplers, the
//! compilers' idle checks, the G1 service thread, the cleaner). They run the
//! JVM's code, not the bot's: their wakeups find no work that a thread of
//! the bot handed them (handing it over would have woken them), and they do
//! not write to the bot's output. A bot's own threads (`main`, `Thread-N`,
//! a `Timer`) sleeping with a timeout are not blocked. See
//! docs/performance.md ("Idle proof").

use crate::transport::procfs::OpenFiles;
use std::fs;

/// What one sleeping task waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// A read of the bot's stdin pipe (it is empty: the read sleeps).
    Input,
    /// A wait for a child process (the child is looked at too).
    Child,
    /// A wait without a timeout that only the bot's own tasks or protocheck
    /// can end.
    Quiet,
    /// A futex wait with a timeout.
    Timed,
    /// Anything else: a sleep, a timed poll, a socket, a terminal, …
    Other,
}

/// One `/proc/<pid>/task/<tid>/syscall` line: the call a blocked task is
/// in, and its six arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    pub number: i64,
    pub args: [u64; 6],
}

/// Parse a `syscall` file; `None` for `running`, `-1 …` (not in a call) or
/// garbage.
pub fn parse_call(text: &str) -> Option<Call> {
    let mut words = text.split_whitespace();
    let number: i64 = words.next()?.parse().ok()?;
    if number < 0 {
        return None;
    }
    let mut args = [0u64; 6];
    for arg in &mut args {
        *arg = u64::from_str_radix(words.next()?.trim_start_matches("0x"), 16).ok()?;
    }
    Some(Call { number, args })
}

/// System call numbers (-1: the call does not exist on this architecture).
#[cfg(target_arch = "x86_64")]
mod nr {
    pub const READS: &[i64] = &[0, 19]; // read, readv
    pub const WAITS: &[i64] = &[61, 247]; // wait4, waitid
    pub const FUTEX: i64 = 202;
    pub const POLL: i64 = 7;
    pub const PPOLL: i64 = 271;
    pub const SELECT: i64 = 23;
    pub const PSELECT6: i64 = 270;
    pub const EPOLL_WAIT: i64 = 232;
    pub const EPOLL_PWAIT: i64 = 281;
    pub const EPOLL_PWAIT2: i64 = 441;
}
#[cfg(target_arch = "aarch64")]
mod nr {
    pub const READS: &[i64] = &[63, 65];
    pub const WAITS: &[i64] = &[260, 95];
    pub const FUTEX: i64 = 98;
    pub const POLL: i64 = -1;
    pub const PPOLL: i64 = 73;
    pub const SELECT: i64 = -1;
    pub const PSELECT6: i64 = 72;
    pub const EPOLL_WAIT: i64 = -1;
    pub const EPOLL_PWAIT: i64 = 22;
    pub const EPOLL_PWAIT2: i64 = 441;
}
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod nr {
    pub const READS: &[i64] = &[];
    pub const WAITS: &[i64] = &[];
    pub const FUTEX: i64 = -1;
    pub const POLL: i64 = -1;
    pub const PPOLL: i64 = -1;
    pub const SELECT: i64 = -1;
    pub const PSELECT6: i64 = -1;
    pub const EPOLL_WAIT: i64 = -1;
    pub const EPOLL_PWAIT: i64 = -1;
    pub const EPOLL_PWAIT2: i64 = -1;
}

/// Whether the waits can be told on this architecture at all.
pub fn supported() -> bool {
    !nr::READS.is_empty()
}

/// Whether `number` is a read (protocheck's own reader must sleep in one).
pub fn is_read(number: i64) -> bool {
    nr::READS.contains(&number)
}

const FUTEX_WAIT: u64 = 0;
const FUTEX_WAIT_BITSET: u64 = 9;
const FUTEX_PRIVATE_FLAG: u64 = 128;
const POLLOUT: u64 = 0x4 | 0x100 | 0x200; // POLLOUT, POLLWRNORM, POLLWRBAND
const EPOLLOUT: u64 = 0x4 | 0x100 | 0x200;
/// More descriptors than this in one wait: not worth reading.
const MAX_FDS: u64 = 1024;

/// What task `call` of process `pid` waits for.
pub fn classify(files: &mut OpenFiles, pid: i32, call: &Call, stdin_link: &str) -> Wait {
    let a = call.args;
    let n = call.number;
    if nr::READS.contains(&n) {
        return match fd_link(pid, a[0] as i64) {
            Some(link) if link == stdin_link => Wait::Input,
            _ => Wait::Other,
        };
    }
    if nr::WAITS.contains(&n) {
        return Wait::Child;
    }
    let quiet = |ok: bool| if ok { Wait::Quiet } else { Wait::Other };
    if n == nr::FUTEX {
        let cmd = a[1] & 0x7f;
        if cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET {
            return Wait::Other;
        }
        // A shared futex in shared memory may be woken by a process
        // outside the bot; in private memory (a thread's id that
        // `pthread_join` waits on) only by its own process.
        if a[1] & FUTEX_PRIVATE_FLAG == 0 && !files.in_private_memory(pid, a[0]) {
            return Wait::Other;
        }
        return if a[3] == 0 { Wait::Quiet } else { Wait::Timed };
    }
    if n == nr::POLL || n == nr::PPOLL {
        let forever = if n == nr::POLL {
            (a[2] as i32) < 0
        } else {
            a[2] == 0
        };
        return quiet(forever && polled_fds_quiet(files, pid, a[0], a[1], stdin_link));
    }
    if n == nr::SELECT || n == nr::PSELECT6 {
        return quiet(a[4] == 0 && selected_fds_quiet(files, pid, &a, stdin_link));
    }
    if n == nr::EPOLL_WAIT || n == nr::EPOLL_PWAIT || n == nr::EPOLL_PWAIT2 {
        let forever = if n == nr::EPOLL_PWAIT2 {
            a[3] == 0
        } else {
            (a[3] as i32) < 0
        };
        return quiet(forever && epoll_quiet(files, pid, a[0] as i64, stdin_link, 0));
    }
    Wait::Other
}

fn fd_link(pid: i32, fd: i64) -> Option<String> {
    let target = fs::read_link(format!("/proc/{pid}/fd/{fd}")).ok()?;
    target.to_str().map(str::to_string)
}

/// Whether descriptor `fd` of `pid`, waited for input (and for room too
/// when `for_output`), can become ready only by the bot's own tasks or by
/// protocheck.
fn fd_quiet(
    files: &mut OpenFiles,
    pid: i32,
    fd: i64,
    for_output: bool,
    stdin_link: &str,
    depth: u32,
) -> bool {
    let Some(link) = fd_link(pid, fd) else {
        return false;
    };
    if link == stdin_link {
        return true; // protocheck's writes wake it: that is the point
    }
    if link.starts_with("pipe:[") {
        // Its writers are the bot's own tasks (protocheck hands the bot
        // only its stdin, stdout and stderr). Room in a pipe comes when a
        // reader drains it, and protocheck's stderr drain is not looked at.
        return !for_output;
    }
    match link.as_str() {
        "anon_inode:[eventfd]" => true,
        "anon_inode:[eventpoll]" => depth < 4 && epoll_quiet(files, pid, fd, stdin_link, depth + 1),
        // A kernel timer wakes its waiter by itself, unless disarmed.
        "anon_inode:[timerfd]" => files
            .read(&format!("/proc/{pid}/fdinfo/{fd}"))
            .is_ok_and(|t| timerfd_disarmed(&t)),
        _ => false, // sockets, terminals, signalfd, inotify, …
    }
}

/// `it_value: (0, 0)` in a timerfd's fdinfo: it will not expire.
pub fn timerfd_disarmed(fdinfo: &str) -> bool {
    fdinfo.lines().any(|l| {
        l.strip_prefix("it_value:")
            .is_some_and(|v| v.split_whitespace().collect::<String>() == "(0,0)")
    })
}

/// The descriptors an epoll set watches, as its fdinfo lists them:
/// `(fd, events, inode)`.
pub fn epoll_targets(fdinfo: &str) -> Option<Vec<(i64, u64, Option<u64>)>> {
    let mut out = Vec::new();
    for line in fdinfo.lines() {
        let Some(rest) = line.strip_prefix("tfd:") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let fd: i64 = words.next()?.parse().ok()?;
        let mut events = None;
        let mut ino = None;
        while let Some(w) = words.next() {
            if w == "events:" {
                events = u64::from_str_radix(words.next()?, 16).ok();
            } else if let Some(hex) = w.strip_prefix("ino:") {
                ino = u64::from_str_radix(hex, 16).ok();
            }
        }
        out.push((fd, events?, ino));
    }
    Some(out)
}

fn epoll_quiet(files: &mut OpenFiles, pid: i32, epfd: i64, stdin_link: &str, depth: u32) -> bool {
    let Ok(info) = files.read(&format!("/proc/{pid}/fdinfo/{epfd}")) else {
        return false;
    };
    let Some(targets) = epoll_targets(&info) else {
        return false;
    };
    targets.into_iter().all(|(fd, events, ino)| {
        // A number reused since it was added names another file: a pipe's
        // inode must match (anonymous inodes all share one).
        if let (Some(ino), Some(link)) = (ino, fd_link(pid, fd))
            && let Some(pipe) = link.strip_prefix("pipe:[")
            && pipe.trim_end_matches(']').parse::<u64>().ok() != Some(ino)
        {
            return false;
        }
        fd_quiet(files, pid, fd, events & EPOLLOUT != 0, stdin_link, depth)
    })
}

/// Read `len` bytes of `pid`'s memory at `addr` (allowed where its
/// `syscall` file was: both need the same access).
fn read_memory(pid: i32, addr: u64, len: usize) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mem = fs::File::open(format!("/proc/{pid}/mem")).ok()?;
    let mut buf = vec![0u8; len];
    mem.read_exact_at(&mut buf, addr).ok()?;
    Some(buf)
}

/// `poll`/`ppoll`: `nfds` entries of `struct pollfd` (fd, events, revents).
fn polled_fds_quiet(
    files: &mut OpenFiles,
    pid: i32,
    addr: u64,
    nfds: u64,
    stdin_link: &str,
) -> bool {
    if nfds > MAX_FDS {
        return false;
    }
    let Some(bytes) = read_memory(pid, addr, nfds as usize * 8) else {
        return false;
    };
    bytes.chunks_exact(8).all(|e| {
        let fd = i32::from_ne_bytes([e[0], e[1], e[2], e[3]]);
        let events = u16::from_ne_bytes([e[4], e[5]]) as u64;
        // A negative descriptor is skipped by the kernel.
        fd < 0 || fd_quiet(files, pid, fd as i64, events & POLLOUT != 0, stdin_link, 0)
    })
}

/// `select`/`pselect6`: three descriptor sets of `nfds` bits (read, write,
/// except); a null pointer is an empty set.
fn selected_fds_quiet(files: &mut OpenFiles, pid: i32, a: &[u64; 6], stdin_link: &str) -> bool {
    let nfds = a[0];
    if nfds > MAX_FDS {
        return false;
    }
    let bytes = (nfds as usize).div_ceil(64) * 8;
    for (set, for_output) in [(a[1], false), (a[2], true), (a[3], true)] {
        if set == 0 || nfds == 0 {
            continue;
        }
        let Some(bits) = read_memory(pid, set, bytes) else {
            return false;
        };
        for fd in 0..nfds as usize {
            if bits[fd / 8] & (1 << (fd % 8)) != 0
                && !fd_quiet(files, pid, fd as i64, for_output, stdin_link, 0)
            {
                return false;
            }
        }
    }
    true
}

/// Service threads of a HotSpot JVM, as `comm` shows them (15 bytes at
/// most): they sleep with timeouts and run the JVM's code only.
const JVM_SERVICE: &[&str] = &[
    "VM Thread",
    "VM Periodic Tas",
    "G1 Service",
    "G1 Main Marker",
    "Monitor Deflati",
    "C1 CompilerThre",
    "C2 CompilerThre",
    "Sweeper thread",
    "Common-Cleaner",
    "Service Thread",
    "Notification Th",
    "Signal Dispatch",
    "Finalizer",
    "Reference Handl",
];
const JVM_SERVICE_NUMBERED: &[&str] = &["GC Thread#", "G1 Conc#", "G1 Refine#", "G1 Refine"];

/// Whether a thread named `comm` of a JVM is one of its service threads.
pub fn jvm_service_thread(comm: &str) -> bool {
    let comm = comm.trim_end_matches('\n');
    JVM_SERVICE.contains(&comm) || JVM_SERVICE_NUMBERED.iter().any(|p| comm.starts_with(p))
}

/// Whether process `pid` runs a JVM (its program is a `java` launcher).
pub fn is_jvm(pid: i32) -> bool {
    fs::read_link(format!("/proc/{pid}/exe"))
        .ok()
        .is_some_and(|p| p.file_name().is_some_and(|n| n == "java"))
}

/// Signal numbers (Linux, both architectures).
const SIGALRM: u32 = 14;
const SIGVTALRM: u32 = 26;

/// Whether no kernel timer can run a signal handler of process `pid` while
/// it sleeps: it does not catch `SIGALRM` (`alarm`, `setitimer`: not shown
/// in /proc), and each of its POSIX timers (`/proc/<pid>/timers`) notifies
/// nobody or sends a signal it does not catch, or is GHC's RTS ticker (a
/// `SIGVTALRM` timer: its handler only sets the runtime's flags, and a
/// Haskell thread waiting for a time would have given the runtime's
/// `select` a timeout). `status` is `/proc/<pid>/status`, `timers` its
/// timers file (`None`: not kept by this kernel, as before this check).
pub fn signals_quiet(status: &str, timers: Option<&str>) -> bool {
    let Some(caught) = status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|v| u64::from_str_radix(v.trim(), 16).ok())
    else {
        return false;
    };
    let catches = |sig: u32| (1..=64).contains(&sig) && caught & (1u64 << (sig - 1)) != 0;
    if catches(SIGALRM) {
        return false;
    }
    let Some(timers) = timers else {
        return true;
    };
    let mut signal = None;
    for line in timers.lines() {
        if let Some(v) = line.strip_prefix("signal:") {
            signal = v
                .trim()
                .split('/')
                .next()
                .and_then(|s| s.parse::<u32>().ok());
        } else if let Some(v) = line.strip_prefix("notify:") {
            let notify = v.trim();
            if notify.starts_with("none") {
                continue;
            }
            let Some(sig) = signal else {
                return false;
            };
            if catches(sig) && sig != SIGVTALRM {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syscall_line_gives_the_call_and_its_arguments() {
        let c = parse_call("202 0x7ff9080152b8 0x89 0x0 0x7ff8d9eacd00 0x0 0xffffffff 0x1 0x2\n")
            .unwrap();
        assert_eq!(c.number, 202);
        assert_eq!(c.args[1], 0x89);
        assert_eq!(c.args[3], 0x7ff8d9eacd00);
        assert_eq!(parse_call("running\n"), None);
        assert_eq!(parse_call("-1 0x7ffd 0x4011\n"), None);
        assert_eq!(parse_call("7 0x1 0x2"), None, "six arguments");
    }

    #[test]
    fn epoll_sets_list_their_descriptors_events_and_inodes() {
        let info = "pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t1030\n\
                    tfd:        0 events:       19 data:                0  pos:0 ino:ecd0 sdev:f\n\
                    tfd:       17 events:        4 data:               11  pos:0 ino:406 sdev:10\n";
        assert_eq!(
            epoll_targets(info),
            Some(vec![(0, 0x19, Some(0xecd0)), (17, 4, Some(0x406))])
        );
        assert_eq!(epoll_targets("pos: 0\n"), Some(vec![]));
    }

    #[test]
    fn only_a_disarmed_timerfd_is_quiet() {
        let armed = "clockid: 1\nticks: 0\nsettime flags: 01\nit_value: (0, 9871234)\n\
                     it_interval: (0, 10000000)\n";
        let disarmed = "clockid: 1\nticks: 12\nsettime flags: 01\nit_value: (0, 0)\n\
                        it_interval: (0, 10000000)\n";
        assert!(!timerfd_disarmed(armed));
        assert!(timerfd_disarmed(disarmed));
    }

    #[test]
    fn jvm_service_threads_are_known_by_name_and_a_bots_threads_are_not() {
        for name in [
            "VM Periodic Tas\n",
            "C2 CompilerThre",
            "GC Thread#3",
            "Common-Cleaner",
        ] {
            assert!(jvm_service_thread(name), "{name}");
        }
        for name in ["main", "Thread-0", "Timer-0", "java", "Cleaner-0"] {
            assert!(!jvm_service_thread(name), "{name}");
        }
    }

    #[test]
    fn a_caught_alarm_or_a_signalling_timer_is_not_quiet() {
        let status = |cgt: &str| format!("Name:\tbot\nSigIgn:\t0\nSigCgt:\t{cgt}\n");
        // GHC's non-threaded runtime: SIGVTALRM (26) caught, its ticker.
        let ghc = "ID: 0\nsignal: 26/0000000000000000\nnotify: signal/pid.7993\nClockID: 1\n";
        assert!(signals_quiet(&status("0000000002081006"), Some(ghc)));
        assert!(signals_quiet(&status("0000000002081006"), None));
        // SIGALRM (14) caught: an `alarm` may be pending.
        assert!(!signals_quiet(&status("0000000000002000"), Some("")));
        // A POSIX timer sending SIGUSR1 (10), caught.
        let usr1 = "ID: 0\nsignal: 10/0000000000000000\nnotify: signal/pid.1\nClockID: 1\n";
        assert!(!signals_quiet(&status("0000000000000200"), Some(usr1)));
        // The same timer whose signal is not caught ends or is ignored.
        assert!(signals_quiet(&status("0000000000000000"), Some(usr1)));
        let none = "ID: 0\nsignal: 10/0000000000000000\nnotify: none/pid.1\nClockID: 1\n";
        assert!(signals_quiet(&status("0000000000000200"), Some(none)));
        assert!(!signals_quiet("garbage", None));
    }
}
