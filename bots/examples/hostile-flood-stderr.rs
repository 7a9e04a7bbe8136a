//! `hostile-flood-stderr`: writes to stderr endlessly and never answers on
//! stdout; exits when the write fails (EPIPE). Game-agnostic.
//!
//! protocheck must keep draining stderr with bounded memory (keeping only a
//! tail), report `kalah.process.stderr-overflow` (more than 64 KiB) and
//! `io.timeout` on the first due reply, and then stop the bot.

use std::io::{self, Write};

fn main() {
    let line = b"debug: this bot talks on stderr and never moves ................\n";
    let chunk: Vec<u8> = line.iter().copied().cycle().take(64 * 1024).collect();
    let mut err = io::stderr().lock();
    // Rust ignores SIGPIPE, so a closed pipe shows up as an error here.
    while err.write_all(&chunk).is_ok() {}
}
