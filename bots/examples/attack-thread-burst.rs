//! `attack-thread-burst`: plays Kalah as `kalah-correct`, and first starts
//! 600 threads that sleep (a burst that a count of processes alone does not
//! see), holds them for a second, then plays.
//!
//! protocheck must: count the threads against `--max-processes` (default
//! 512) as the kernel counts them, and stop the bot with `io.resource-limit`.

use protocheck_sample_bots::attack as common;

use std::time::Duration;

const THREADS: usize = 600;

fn attack(a: &common::Attack) {
    let mut started = 0;
    let mut error = None;
    for _ in 0..THREADS {
        let spawned = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(|| std::thread::sleep(Duration::from_secs(2)));
        match spawned {
            Ok(_) => started += 1,
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    match error {
        None => a.succeeded("start 600 threads", format!("{started} threads running")),
        Some(e) => a.error(&format!("start 600 threads, after {started}"), &e),
    }
    std::thread::sleep(Duration::from_secs(1));
}

fn main() {
    common::run("thread-burst", attack)
}
