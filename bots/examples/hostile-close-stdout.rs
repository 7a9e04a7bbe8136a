//! `hostile-close-stdout`: closes its stdout at once but keeps running,
//! reading stdin and ignoring SIGTERM. Game-agnostic.
//!
//! protocheck must report `io.crash` (stdout closed before the game ended)
//! and kill the bot, which does not leave by itself.

use std::io::Read;
use std::time::Duration;

fn main() {
    // SAFETY: closing a descriptor and ignoring a signal have no
    // preconditions; nothing in this program uses stdout afterwards.
    unsafe {
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
        libc::close(1);
    }
    let mut sink = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut sink);
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}
