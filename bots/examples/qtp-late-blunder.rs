//! `qtp-late-blunder`: plays as `qtp-correct`, but `genmove` answers the
//! cell its own pawn stands on whenever the other pawn stands on the centre
//! cell of the board. A random opponent may wander there late in a game: the
//! game that shrinking (docs/shrinking.md) makes much shorter.
//!
//! protocheck must report: `quoridor.genmove.illegal` (fail) in the
//! generated games whose other pawn reaches the centre.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-late-blunder", common::Flaw::LateBlunder)
}
