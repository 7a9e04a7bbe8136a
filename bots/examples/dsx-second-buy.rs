//! `dsx-second-buy`: after its buy it spends what is left: a second
//! `(buy copper)` (cost 0) with `(buys 0)`.
//!
//! Mimics: "while coins ≥ cost, buy" loops that ignore `buys` (§9.1 #17).
//!
//! protocheck must report: `dominion-sexp.buy.no-buys`, in the first turn
//! in which it buys (by its second turn: one of the two opening hands holds
//! 4+ coins).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-second-buy", common::Flaw::SecondBuy)
}
