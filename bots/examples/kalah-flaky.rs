//! `kalah-flaky`: seeds its choices from the clock and, on about one reply
//! in ten, names the leftmost empty hole of its row, if it has one: each run
//! fails at another move, or not at all.
//!
//! protocheck must report: `kalah.move.empty-hole` (fail) in most generated
//! games; shrinking (docs/shrinking.md) must not claim a shorter game, since
//! the failing one does not fail the same way when played again.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::Flaky)
}
