//! `dsx-bare-clean`: ends every turn with a bare `(clean)`, even with cards
//! left in hand.
//!
//! Mimics: "Bots that always answer `(clean)`" (§9.2, D4; the reference's
//! `abort-bare-clean`).
//!
//! protocheck must report: `dominion-sexp.clean.card-required`, at the
//! first clean-up with a card left in hand (its first turn unless that hand
//! is five coppers).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-bare-clean", common::Flaw::BareClean)
}
