//! `dsx-stale-clean`: at clean-up it shows the first card of the hand it was
//! dealt at the start of the turn, although that card may have been added
//! (or trashed) since; with an empty hand it still names a card.
//!
//! Mimics: a clean-up computed from a stale copy of the hand (§9.1 #21,
//! §9.2 "always name a card").
//!
//! protocheck must report: `dominion-sexp.clean.top-not-in-hand`, in the
//! first turn whose dealt hand starts with a treasure (nearly always on its
//! first or second turn).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-stale-clean", common::Flaw::StaleClean)
}
