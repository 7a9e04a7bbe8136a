//! `dsx-capitalised`: writes the play's keyword capitalised: `(Add copper)`,
//! `(Buy silver)`, `(Clean estate)`.
//!
//! Mimics: case-insensitive thinking in a case-sensitive protocol (D14,
//! §9.1 #8).
//!
//! protocheck must report: `dominion-sexp.grammar.case`, on its first move.
//! Otherwise identical to `dsx-correct`.

#[path = "common/mod.rs"]
mod common;

fn main() {
    common::run("dsx-capitalised", common::Flaw::Capitalised)
}
