//! `hostile-silent`: reads (and discards) stdin until EOF and never writes
//! anything; exits 0 at EOF. Game-agnostic.
//!
//! protocheck must report `io.timeout` on the first due reply (Kalah: after
//! `START;South` or the first `…;YOU`), then end the match without hanging.

use std::io::{self, Read};

fn main() {
    let mut stdin = io::stdin().lock();
    let mut buf = [0u8; 4096];
    loop {
        match stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}
