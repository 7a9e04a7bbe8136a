//! `attack-thread-burst`: plays Kalah as `kalah-correct`, and first starts
//! 600 threads that wait (a burst that a count of processes alone does not
//! see), holds them for three seconds once all are started (many looks of
//! protocheck's monitor, even on a loaded machine), then lets them end and
//! plays. The threads wait to be let go rather than sleep a fixed time:
//! on a loaded machine starting 600 threads can take longer than any fixed
//! sleep, and the first would end before the last began.
//!
//! protocheck must: count the threads against `--max-processes` (default
//! 512) as the kernel counts them, and stop the bot with `io.resource-limit`.

use protocheck_sample_bots::attack as common;

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

const THREADS: usize = 600;

fn attack(a: &common::Attack) {
    let released = Arc::new((Mutex::new(false), Condvar::new()));
    let mut started = 0;
    let mut error = None;
    for _ in 0..THREADS {
        let released = Arc::clone(&released);
        let spawned = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                let (gone, wake) = &*released;
                let mut gone = gone.lock().unwrap_or_else(|e| e.into_inner());
                while !*gone {
                    gone = wake.wait(gone).unwrap_or_else(|e| e.into_inner());
                }
            });
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
    std::thread::sleep(Duration::from_secs(3));
    let (gone, wake) = &*released;
    *gone.lock().unwrap_or_else(|e| e.into_inner()) = true;
    wake.notify_all();
}

fn main() {
    common::run("thread-burst", attack)
}
