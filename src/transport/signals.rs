//! SIGINT, SIGTERM and SIGHUP, handled the same way: a Ctrl-C, a cancelled
//! CI job (`timeout`, SIGTERM) and a closed terminal all end the run after
//! killing every bot. The signal handler itself only writes the signal
//! number to a pipe (async-signal-safe); a thread reads it and does the
//! work, so the work may lock, allocate and print, and the report can name
//! the signal (which the `ctrlc` crate does not pass on).

use std::sync::atomic::{AtomicI32, Ordering};

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

/// Call `handler` (on a thread of its own) with the first of SIGINT,
/// SIGTERM or SIGHUP that arrives. The handler is expected to exit.
pub fn on_termination(handler: impl FnOnce(i32) + Send + 'static) -> std::io::Result<()> {
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
            let mut byte = 0u8;
            loop {
                // SAFETY: reads one byte into `byte`.
                let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
                if n == 1 {
                    handler(i32::from(byte));
                    return;
                }
                if n == 0 {
                    return;
                }
                // n < 0: EINTR, try again.
            }
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
