//! `dsx-show-hand`: shows its whole remaining hand at clean-up:
//! `(clean estate estate)` (one card is still `(clean estate)`, none
//! `(clean)`).
//!
//! Mimics: `(clean card …)` read as "discard these cards".
//!
//! protocheck must report: `dominion-sexp.grammar.arity`, at the first
//! clean-up with two or more cards left in hand.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-show-hand", common::Flaw::ShowHand)
}
