//! `hostile-deaf`: ignores SIGTERM, never reads stdin, never writes, and
//! sleeps forever. Game-agnostic.
//!
//! protocheck must report `io.timeout`, and then get rid of it with SIGKILL
//! (SIGTERM and closing stdin have no effect) without hanging itself.

use std::time::Duration;

fn main() {
    // SAFETY: installing SIG_IGN for SIGTERM has no preconditions.
    unsafe {
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
    }
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}
