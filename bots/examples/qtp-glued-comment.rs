//! `qtp-glued-comment`: like the reference engine, a `#` glued to a token
//! (`name#x`, `horizontal#c`) stays part of the token, so `name#x` is
//! `? unknown command`; a `#` that starts a token starts a comment as it
//! should. Otherwise identical to `qtp-correct`.
//!
//! The document deletes everything from any `#`, but the reference engine
//! (naive 1.1.47.beta) does not, and the referee never sends comments
//! (quoridor.md §7 decision 19).
//!
//! protocheck must report: `quoridor.input.glued-comment` (warn; fail with
//! `--strict`) and nothing else.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-glued-comment", common::Flaw::GluedComment)
}
