//! `kalah-chatty-stderr`: writes 8 KiB of debug text to stderr before every
//! reply, so a game of more than 8 replies exceeds 64 KiB. Otherwise identical
//! to `kalah-correct`.
//!
//! Mimics (kalah.md §9.2) "Chatty stderr": under the reference, which never
//! reads stderr, the bot blocks once the pipe buffer is full and loses on time.
//!
//! protocheck must report: `kalah.process.stderr-overflow` (fail), in any game
//! where the bot replies at least 9 times.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::ChattyStderr)
}
