//! `dsx-late-blunder`: plays as `dsx-correct` until a state's supply holds
//! fewer estates and duchies than the first state's did (it buys duchies
//! itself only late in the game, and big money never gains one); from then
//! on it opens each turn with `(buy province)` before adding any treasure.
//! A bug that only a long game reaches: the game that shrinking
//! (docs/shrinking.md) makes much shorter, by having a built-in seat buy an
//! estate early.
//!
//! protocheck must report: `dominion-sexp.buy.too-expensive` (fail), deep in
//! a generated game against big money; with `--save-failures` a shrunk
//! game that fails with it too, in far fewer moves.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-late-blunder", common::Flaw::LateBlunder)
}
