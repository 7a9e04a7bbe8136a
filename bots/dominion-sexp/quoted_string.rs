//! `dsx-quoted-string`: writes every play as a string literal, `"(add copper)"`
//! (the quoted text of the play, as `repr`/`json.dumps` would print it).
//!
//! Mimics: printing the representation of a string instead of the string.
//!
//! protocheck must report: `dominion-sexp.grammar.not-a-play`, on its first
//! move.
//! Otherwise identical to `dsx-correct`.

#[path = "common/mod.rs"]
mod common;

fn main() {
    common::run("dsx-quoted-string", common::Flaw::QuotedString)
}
