//! `qtp-exits-after-win`: exits with status 0 as soon as a pawn has reached
//! its goal row, right after its response to the winning move (its own
//! `genmove` or the other colour's `playmove`), before `winner` and `quit`.
//! Otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §5, issue 26.5) an engine that thinks its work is
//! done once somebody has won. The referee asks both engines `winner` after
//! the winning move and plays the next game on the same process; its write
//! to a dead engine ends the whole match ("is not responding, quitting").
//!
//! protocheck must report: `io.crash` (fail); in a match, a forfeit of that
//! game although its result was known (docs/match.md).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-exits-after-win", common::Flaw::ExitsAfterWin)
}
