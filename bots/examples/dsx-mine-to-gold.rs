//! `dsx-mine-to-gold`: its mine trashes the cheapest treasure in hand and gains
//! the most expensive treasure in the supply, ignoring the "cost + 3" limit:
//! `(act mine copper gold)`.
//!
//! Mimics: mine read as "upgrade to the best treasure" (§9.1 #10).
//!
//! protocheck must report: `dominion-sexp.mine.too-expensive`, in the first
//! turn it holds its mine (bought at its first 5 coins) with a copper.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-mine-to-gold", common::Flaw::MineToGold)
}
