//! `evo-no-exit`: plays correctly, but after the server closes the socket it
//! keeps polling it (a 0-byte read every 50 ms) and never exits.
//!
//! Mimics rules digest §9.2 item 3 (a client that retries decoding on zero-byte
//! reads forever; the original spins at 100% CPU, this one sleeps between
//! reads to spare shared machines).
//!
//! protocheck must report: `io.no-exit` (warn) after the game.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-no-exit", common::Flaw::NoExit)
}
