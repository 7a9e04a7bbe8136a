//! `hostile-close-stdin`: closes its stdin at once and sleeps, ignoring
//! SIGTERM. Game-agnostic.
//!
//! protocheck's next write to the bot fails with EPIPE; protocheck must
//! report `io.crash` (the bot stopped reading before the game ended), not
//! fail itself, and kill the bot.

use std::time::Duration;

fn main() {
    // SAFETY: closing a descriptor and ignoring a signal have no
    // preconditions.
    unsafe {
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
        libc::close(0);
    }
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}
