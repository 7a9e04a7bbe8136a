//! `hostile-setpgid`: forks a child that moves itself into a process group
//! of its own (`setpgid(0, 0)`, same session), ignores SIGTERM and sleeps
//! with the bot's pipes open; the bot exits after reading its first line.
//! Game-agnostic.
//!
//! protocheck must report `io.crash` and kill the child, which the process
//! group kill does not reach.

use std::io::BufRead;
use std::time::Duration;

fn main() {
    // SAFETY: single-threaded, so fork is safe.
    unsafe {
        if libc::fork() == 0 {
            libc::setpgid(0, 0);
            libc::signal(libc::SIGTERM, libc::SIG_IGN);
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
    }
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
}
