//! `dsx-mine-from-supply`: looks for the mine in the supply instead of its
//! hand,
//! so it plays `(act mine copper silver)` without a mine in hand.
//!
//! Mimics: looking a card up in the wrong section of the state.
//!
//! protocheck must report: `dominion-sexp.mine.not-in-hand`, on its first move.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-mine-from-supply", common::Flaw::MineFromSupply)
}
