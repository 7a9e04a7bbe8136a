//! `dsx-act-treasures`: plays treasures with `act`, as it plays actions:
//! `(act copper)` instead of `(add copper)`.
//!
//! Mimics: every card played with `act` (only the action card mine is).
//!
//! protocheck must report: `dominion-sexp.grammar.unknown-action`, on its
//! first move.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-act-treasures", common::Flaw::ActTreasures)
}
