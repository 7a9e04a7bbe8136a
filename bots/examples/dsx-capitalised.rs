//! `dsx-capitalised`: writes the play's keyword capitalised: `(Add copper)`,
//! `(Buy silver)`, `(Clean estate)`.
//!
//! Mimics: case-insensitive thinking in a case-sensitive protocol (D14,
//! §9.1 #8).
//!
//! protocheck must report: `dominion-sexp.grammar.case`, on its first move.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-capitalised", common::Flaw::Capitalised)
}
