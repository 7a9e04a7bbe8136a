//! `hostile-binary-garbage`: answers its first line with a NUL and binary
//! garbage (invalid UTF-8) ending in LF, then reads on and never answers
//! again. Game-agnostic.
//!
//! protocheck must report `io.invalid-utf8` and show the bytes escaped in
//! the report.

use std::io::{BufRead, Read, Write};

fn main() {
    let mut stdin = std::io::stdin().lock();
    let mut line = String::new();
    let _ = stdin.read_line(&mut line);
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(b"\0MOVE\xff\xfe;\x80\x01\x02garbage\x00\n")
        .and_then(|()| out.flush());
    let mut sink = Vec::new();
    let _ = stdin.read_to_end(&mut sink);
}
