//! `kalah-late-blunder`: plays as `kalah-correct` until protocheck's store
//! holds 25 seeds or more; from then on it names the leftmost empty hole of
//! its row, if it has one. A bug that only a long game reaches: the game
//! that shrinking (docs/shrinking.md) makes much shorter.
//!
//! protocheck must report: `kalah.move.empty-hole` (fail), deep in a
//! generated game; with `--save-failures` a shrunk game that fails with it
//! too, in far fewer moves.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::LateBlunder)
}
