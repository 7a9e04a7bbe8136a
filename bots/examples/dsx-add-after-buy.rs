//! `dsx-add-after-buy`: adds treasures one at a time and buys as soon as it can
//! afford a silver or better, then adds the treasures still in hand:
//! `(add copper)` with `(buys 0)` (decision D2: the reference refuses it).
//!
//! Mimics: the reference's `abort-add-after-buy` (§9.1 #18).
//!
//! protocheck must report: `dominion-sexp.add.no-buys`, in the first turn
//! whose hand holds 4+ coins (by its second turn).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-add-after-buy", common::Flaw::AddAfterBuy)
}
