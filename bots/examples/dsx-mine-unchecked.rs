//! `dsx-mine-unchecked`: holding a mine, it always plays `(act mine silver
//! gold)`,
//! without checking that a silver is in hand.
//!
//! Mimics: an action chosen from the card held, its target not checked.
//!
//! protocheck must report: `dominion-sexp.mine.trash-not-in-hand`, in the
//! first turn it holds its mine (bought at its first 5 coins) without a
//! silver.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-mine-unchecked", common::Flaw::MineUnchecked)
}
