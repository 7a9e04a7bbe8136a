//! `hostile-fork-bomb`: a bounded fork bomb. Every process forks in each
//! of 8 rounds, so up to 256 processes, all in the bot's group, all
//! sleeping; the bot never answers. Bounded so that a machine survives even
//! if protocheck did not stop it. Game-agnostic.
//!
//! protocheck must report `io.resource-limit` (more processes alive than
//! `--max-processes`, default 64), kill them all, and keep working.

use std::time::Duration;

fn main() {
    for _ in 0..8 {
        // SAFETY: single-threaded, so fork is safe.
        unsafe { libc::fork() };
        std::thread::sleep(Duration::from_millis(20));
    }
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}
