//! `dtext-late-blunder`: plays as `dtext-correct` until a supply line at
//! its turn's start shows fewer estates and duchies than the first one did
//! (it buys them itself only once 3 provinces or fewer are left, and the
//! built-in seats hardly ever gain one); from then on it plays an action
//! card it does not hold. A bug that only a long game reaches: the game
//! that shrinking (docs/shrinking.md) makes much shorter, by having a
//! built-in seat buy an estate early.
//!
//! protocheck must report: `dominion-text.action.not-in-hand` (fail), deep
//! in a generated game; with `--save-failures` a shrunk game that fails
//! with it too, in far fewer moves.

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::LateBlunder)
}
