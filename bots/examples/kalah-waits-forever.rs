//! `kalah-waits-forever`: as South it waits for North's move before making
//! its own, so after `START;South` it reads on and never answers. As North it
//! plays like `kalah-correct`.
//!
//! Mimics a bot that has the order of play wrong (South moves first).
//!
//! protocheck must report: `io.timeout` (fail) with the diagnosis "the bot is
//! blocked reading its input", within a fraction of a second instead of the
//! 10 s start-up timeout (on Linux; elsewhere after the timeout).

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::WaitsForever)
}
