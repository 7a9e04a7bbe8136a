//! `hostile-flood-line`: writes one endless line (no LF) to stdout as fast as
//! it can; exits when the write fails (EPIPE once protocheck closes the pipe).
//! Game-agnostic.
//!
//! protocheck must report `io.line-too-long` once the line passes 64 KiB,
//! with bounded memory, and then stop the bot.

use std::io::{self, Write};

fn main() {
    let chunk = [b'x'; 64 * 1024];
    let mut out = io::stdout().lock();
    // Rust ignores SIGPIPE, so a closed pipe shows up as an error here.
    while out.write_all(&chunk).is_ok() {}
}
