//! `dsx-v2-buys`: a version-2 player: where it would buy a silver it buys
//! a `village` (cost 3), a card version 1 does not have.
//!
//! Mimics: a bot written for version 2 run on version 1 (D5).
//!
//! protocheck must report: `dominion-sexp.grammar.unknown-card`, at its
//! first buy with 3 or 4 coins (its first or second turn in most deals).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-v2-buys", common::Flaw::V2Buys)
}
