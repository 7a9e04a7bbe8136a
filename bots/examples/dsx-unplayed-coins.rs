//! `dsx-unplayed-coins`: never adds its treasures: it buys with the value
//! of the
//! treasures in its hand as if they counted by themselves, e.g. `(buy silver)`
//! at `(coins 0)` with three coppers in hand.
//!
//! Mimics: treasures assumed to be played automatically (§3.3: "Coins come
//! only from `(add treasure)`").
//!
//! protocheck must report: `dominion-sexp.buy.too-expensive`, on its first
//! turn whose hand is worth 3 or more (at the latest its second turn: 7
//! coppers in 10 cards).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-unplayed-coins", common::Flaw::UnplayedCoins)
}
