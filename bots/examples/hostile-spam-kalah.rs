//! `hostile-spam-kalah`: a Kalah bot that answers `START;South` with
//! `MOVE;1` and then writes valid `MOVE;1` lines out of turn, forever, as fast
//! as it can (as North it starts at its first `CHANGE;…;YOU`). Every line is
//! a well-formed message; only their number is wrong.
//!
//! protocheck must report `io.unexpected-output` and then `io.output-flood`,
//! kill the bot, and keep its report small.

use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let message = line.trim_end();
        if message == "START;South" || message.ends_with(";YOU") {
            break;
        }
    }
    // Lines of one write each, so the flood arrives as many messages.
    let chunk = "MOVE;1\n".repeat(1024);
    let mut out = io::stdout().lock();
    // Rust ignores SIGPIPE, so a closed pipe shows up as an error here.
    while out
        .write_all(chunk.as_bytes())
        .and_then(|_| out.flush())
        .is_ok()
    {}
}
