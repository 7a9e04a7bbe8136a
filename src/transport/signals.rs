//! SIGINT, SIGTERM and SIGHUP, handled the same way: a Ctrl-C, a cancelled
//! CI job (`timeout`, SIGTERM) and a closed terminal all end the run after
//! killing every bot. The signal handler itself only writes the signal
//! number to a pipe (async-signal-safe); a thread reads it and does the
//! work, so the work may lock, allocate and print, and the report can name
//! the signal (which the `ctrlc` crate does not pass on). That thread sets
//! the run's [`StopToken`], made once by `main` and passed down to whatever
//! must stop, and acts on what the stop means for the command under way
//! ([`OnStop`]): leave at once, let the suite write its report, or let
//! `grade` pass the stop on to its bots' protocheck processes. In the last
//! two a second signal, or a deadline, ends protocheck at once.

use super::exit_status::signal_name;
use super::process;
use crate::pool::{OnStop, StopToken};
use std::io::Write;
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

/// How long a stopped run may take to write its report before protocheck
/// leaves without it (a stuck report must never keep protocheck alive).
const REPORT_DEADLINE: Duration = Duration::from_secs(5);

/// How long `grade`'s stopped bots' protocheck processes get to write
/// their reports (each keeps its own, shorter deadline) before grade
/// leaves.
const PASSED_ON_DEADLINE: Duration = Duration::from_secs(15);

/// Handle SIGINT, SIGTERM and SIGHUP for this run: set `stop`, then do
/// what the stop means ([`StopToken::on_stop`]). `Leave`: kill every bot
/// and exit 2. `Report`: kill every bot; the main thread writes the report
/// and calls [`leave`]. `PassOn` (grade, whose descendants are the bots'
/// protocheck processes, which must get the signal themselves to stop
/// their bots and still write their reports): kill nothing here; grade
/// passes the stop on. A second signal (or the deadline) leaves at once.
pub fn handle_stops(stop: &StopToken) -> std::io::Result<()> {
    let (first, last) = (stop.clone(), stop.clone());
    on_termination(
        move |signal| {
            // The token first: a scenario whose bot dies of the kill below
            // ends after the stop it records, and is not judged for it.
            match first.stop(signal) {
                OnStop::Leave => {
                    process::kill_all_live_groups();
                    say_stopped(signal, "");
                    std::process::exit(2);
                }
                OnStop::Report => {
                    process::kill_all_live_groups();
                    // Said now, not after the report: a user who sees
                    // nothing happen presses Ctrl-C again, and should know
                    // what that does. On a thread of its own: a stderr
                    // nobody reads must not keep this thread from its
                    // deadline.
                    std::thread::spawn(move || {
                        say_stopped(
                            signal,
                            "; writing the report (a second signal, e.g. Ctrl-C again, leaves without it)",
                        )
                    });
                    REPORT_DEADLINE
                }
                OnStop::PassOn => {
                    std::thread::spawn(move || {
                        let _ = writeln!(
                            std::io::stderr(),
                            "\nprotocheck: stopped by {}; passing it on to the running bots, whose reports are still written (a second signal leaves without them)",
                            signal_name(signal)
                        );
                    });
                    PASSED_ON_DEADLINE
                }
            }
        },
        move |signal, again| {
            let why = if last.on_stop() == OnStop::PassOn {
                // The children get SIGTERM again as their parent dies
                // (Linux) and leave without their reports.
                "leaving without the reports of the bots still running".to_string()
            } else {
                process::kill_all_live_groups();
                let why = match again {
                    Some(second) => format!("stopped by {} again", signal_name(second)),
                    None => format!(
                        "the report was not written within {} s of {}",
                        REPORT_DEADLINE.as_secs(),
                        signal_name(signal)
                    ),
                };
                format!("{why}; leaving without it (all bot processes killed)")
            };
            let _ = writeln!(std::io::stderr(), "\nprotocheck: {why}");
            // _exit: the main thread may be holding stdout or be inside
            // exit itself; nothing it holds may keep protocheck alive.
            // SAFETY: _exit has no preconditions.
            unsafe { libc::_exit(2) };
        },
    )
}

/// The end of `main`, once the command returned `code`: kill whatever is
/// left of every bot and exit, with 2 after a stop that killed the bots
/// (saying so), and leave it to the handler when the stop leaves at once.
pub fn leave(stop: &StopToken, code: i32) -> ! {
    if let Some(interrupt) = stop.interruption() {
        match stop.on_stop() {
            OnStop::Leave => {
                // The signal handler exits with 2 as soon as it is done: let it.
                loop {
                    std::thread::sleep(Duration::from_secs(3600));
                }
            }
            OnStop::Report => {
                process::kill_everything_left();
                say_stopped(interrupt.signal, "");
                std::process::exit(2);
            }
            // grade said so itself, and returns 2.
            OnStop::PassOn => {}
        }
    }
    process::kill_everything_left();
    std::process::exit(code);
}

/// The line that says why the run ends, once (`then`: what happens next).
fn say_stopped(signal: i32, then: &str) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if SAID.swap(true, Ordering::SeqCst) {
        return;
    }
    // The terminal may be gone (SIGHUP): a failed write is no reason to
    // panic here.
    let _ = writeln!(
        std::io::stderr(),
        "\nprotocheck: stopped by {}; all bot processes killed{then}",
        signal_name(signal)
    );
}

/// Call `first` (on a thread of its own) with the first of SIGINT, SIGTERM
/// or SIGHUP that arrives. If `first` returns (a deadline), the main thread
/// is expected to finish and exit; should it not within the deadline, or at
/// a second signal, `last` is called with the first signal and the second
/// (`None`: the deadline passed), and is expected to exit.
fn on_termination(
    first: impl FnOnce(i32) -> Duration + Send + 'static,
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
            let deadline = first(signal);
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
