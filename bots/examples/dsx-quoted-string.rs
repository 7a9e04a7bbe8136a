//! `dsx-quoted-string`: writes every play as a string literal, `"(add copper)"`
//! (the quoted text of the play, as `repr`/`json.dumps` would print it).
//!
//! Mimics: printing the representation of a string instead of the string.
//!
//! protocheck must report: `dominion-sexp.grammar.not-a-play`, on its first
//! move.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-quoted-string", common::Flaw::QuotedString)
}
