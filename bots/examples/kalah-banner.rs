//! `kalah-banner`: prints the line `hello from bot` on stdout at start-up,
//! before START. Otherwise identical to `kalah-correct`.
//!
//! Mimics (kalah.md §9.2) "A banner or debug line on stdout, for example before
//! the first move" (the reference would read it as the bot's first move).
//!
//! protocheck must report: `io.unexpected-output` (fail).

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::Banner)
}
