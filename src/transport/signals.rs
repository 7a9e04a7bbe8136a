//! SIGINT, SIGTERM and SIGHUP, handled the same way: a Ctrl-C, a cancelled
//! CI job (`timeout`, SIGTERM) and a closed terminal all end the run after
//! killing every bot. The signal handler itself only writes the signal
//! number to a pipe (async-signal-safe); a thread reads it and does the
//! work, so the work may lock, allocate and print, and the report can name
//! the signal (which the `ctrlc` crate does not pass on). While a suite
//! runs, the first signal only stops it (its report is still written); a
//! second signal, or a deadline, ends protocheck at once.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// The write end of the self-pipe (-1 until installed).
static PIPE_WRITE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_signal(signal: libc::c_int) {
    // SAFETY: write(2) is async-signal-safe; errno is saved and restored so
    // the interrupted code does not see ours.
    unsafe {
        let errno = errno_location();
        let saved = *errno;
        let byte = signal as u8;
        libc::write(
            PIPE_WRITE.load(Ordering::Relaxed),
            (&byte as *const u8).cast(),
            1,
        );
        *errno = saved;
    }
}

#[cfg(target_os = "linux")]
unsafe fn errno_location() -> *mut libc::c_int {
    // SAFETY: returns this thread's errno slot.
    unsafe { libc::__errno_location() }
}

#[cfg(not(target_os = "linux"))]
unsafe fn errno_location() -> *mut libc::c_int {
    // SAFETY: returns this thread's errno slot.
    unsafe { libc::__error() }
}

/// The signals that end a run.
pub const TERMINATING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Set while a run that reports on a stop is under way (see
/// [`on_termination`]).
static REPORTING: AtomicBool = AtomicBool::new(false);

/// Say whether a stop should wait for the report: true while the suite
/// runs, so its report is still written (with the rest marked
/// interrupted); false for everything else, which a signal ends at once.
pub fn set_reporting(on: bool) {
    REPORTING.store(on, Ordering::SeqCst);
}

/// Whether a stop waits for the report (see [`set_reporting`]).
pub fn reporting() -> bool {
    REPORTING.load(Ordering::SeqCst)
}

/// Call `first` (on a thread of its own) with the first of SIGINT, SIGTERM
/// or SIGHUP that arrives. If `first` returns, the main thread is expected
/// to finish its report and exit; should it not within `deadline`, or at a
/// second signal, `last` is called with the first signal and the second
/// (`None`: the deadline passed), and is expected to exit.
pub fn on_termination(
    first: impl FnOnce(i32) + Send + 'static,
    deadline: Duration,
    last: impl FnOnce(i32, Option<i32>) + Send + 'static,
) -> std::io::Result<()> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe writes two descriptors into `fds`; fcntl/sigaction get
    // valid arguments.
    unsafe {
        if libc::pipe(fds.as_mut_ptr()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        for fd in fds {
            // No bot may inherit the pipe.
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
    let [read_end, write_end] = fds;
    PIPE_WRITE.store(write_end, Ordering::Relaxed);
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let Some(signal) = next_signal(read_end, None) else {
                return;
            };
            first(signal);
            let again = next_signal(read_end, Some(Instant::now() + deadline));
            last(signal, again);
        })?;
    for signal in TERMINATING {
        // SAFETY: a zeroed sigaction with a plain handler is valid.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// The next signal number written to the pipe, or `None` when `until`
/// passes first (or the pipe is gone).
fn next_signal(read_end: libc::c_int, until: Option<Instant>) -> Option<i32> {
    loop {
        if let Some(until) = until {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            let mut poll = libc::pollfd {
                fd: read_end,
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
            // SAFETY: polls one valid pollfd.
            let ready = unsafe { libc::poll(&mut poll, 1, ms) };
            if ready < 0
                && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
            {
                return None;
            }
            if ready <= 0 {
                // No signal yet (the loop looks at the clock), or EINTR.
                continue;
            }
        }
        let mut byte = 0u8;
        // SAFETY: reads one byte into `byte`.
        let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
        if n == 1 {
            return Some(i32::from(byte));
        }
        if n == 0 {
            return None;
        }
        // n < 0: EINTR, try again.
    }
}
