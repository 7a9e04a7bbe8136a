//! `hostile-setsid`: forks a child that calls `setsid()` (a new session and
//! process group, out of reach of a process-group kill) and forks a
//! grandchild; both ignore SIGTERM and sleep. The bot itself never answers
//! and leaves at end-of-input. Game-agnostic.
//!
//! protocheck must report `io.timeout` and leave neither the child nor the
//! grandchild running: they are found by the tag in their environment
//! (protocheck is a subreaper) and killed at the end of the scenario.

use std::io::Read;
use std::time::Duration;

fn main() {
    // SAFETY: the bot is single-threaded, so fork is safe; the child only
    // calls async-signal-safe functions and std's sleep.
    unsafe {
        if libc::fork() == 0 {
            libc::setsid();
            libc::signal(libc::SIGTERM, libc::SIG_IGN);
            libc::fork();
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
    }
    let mut sink = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut sink);
}
