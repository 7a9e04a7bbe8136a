//! `hostile-crash-signal`: after reading its first line it kills itself with
//! SIGSEGV (core dumps disabled). Game-agnostic.
//!
//! protocheck must report `io.crash` and name the signal (SIGSEGV, signal 11)
//! rather than an exit status.

use std::io::{self, BufRead};

fn main() {
    let mut line = String::new();
    let _ = io::stdin().lock().read_line(&mut line);
    // SAFETY: plain libc calls on this process. Rust's own SIGSEGV handler
    // (stack-overflow detection) is replaced by the default action first, so
    // the raised signal terminates the process.
    unsafe {
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
        libc::raise(libc::SIGSEGV);
    }
    // Not reached; exit distinctly if the signal was somehow not fatal.
    std::process::exit(70);
}
