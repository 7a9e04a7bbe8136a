//! `hostile-huge-line`: after its first line of input, writes a single
//! 10 MB line without LF, then reads on without ever finishing it.
//! Game-agnostic.
//!
//! protocheck must report `io.line-too-long` as soon as the line passes the
//! cap (64 KiB by default), keeping bounded memory, and stop the bot.

use std::io::{BufRead, Read, Write};

fn main() {
    let mut stdin = std::io::stdin().lock();
    let mut line = String::new();
    let _ = stdin.read_line(&mut line);
    let chunk = [b'7'; 64 * 1024];
    let mut out = std::io::stdout().lock();
    for _ in 0..160 {
        if out.write_all(&chunk).is_err() {
            return;
        }
    }
    let _ = out.flush();
    let mut sink = Vec::new();
    let _ = stdin.read_to_end(&mut sink);
}
