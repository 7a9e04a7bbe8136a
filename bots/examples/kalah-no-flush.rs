//! `kalah-no-flush`: writes its moves into a 64 KiB buffered writer and never
//! flushes it until it exits, so no reply ever reaches the engine in time.
//! Otherwise identical to `kalah-correct`. (When it finally exits, on `END` or
//! EOF, the buffered moves come out all at once.)
//!
//! Mimics (kalah.md §9.2) "Printing the move without flushing stdout: the move
//! sits in the stdio buffer and the agent times out."
//!
//! protocheck must report: `io.timeout` (fail) on the first due reply.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::NoFlush)
}
