//! `dsx-mine-any-card`: thinks mine trashes any card, as remodel does:
//! holding a
//! mine and an estate, it plays `(act mine estate silver)`.
//!
//! Mimics: mine confused with remodel (a version-2 card).
//!
//! protocheck must report: `dominion-sexp.grammar.not-treasure`, in the
//! first turn it holds its mine (bought at its first 5 coins) with an
//! estate.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-mine-any-card", common::Flaw::MineAnyCard)
}
