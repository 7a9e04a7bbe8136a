//! `hostile-slowloris`: answers every line with `MOVE;1`, but writes it one
//! byte per second. Game-agnostic (the move is a Kalah move).
//!
//! protocheck must report `io.timeout` when the reply is not complete
//! within `--timeout`, however busy the bot looks.

use std::io::{BufRead, Write};
use std::time::Duration;

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        if line.is_err() {
            return;
        }
        for byte in b"MOVE;1\n" {
            if out.write_all(&[*byte]).and_then(|()| out.flush()).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}
