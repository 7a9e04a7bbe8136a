//! `dsx-hash-comment`: writes a shell-style comment line before each play:
//! `# thinking` LF `(add copper)`. S-expressions have no `#` comment (`;` is
//! the comment character) and `# ` is a read error for the reference.
//!
//! Mimics: debug/comment lines on stdout in another language's syntax.
//!
//! protocheck must report: `dominion-sexp.frame.syntax`, on its first move.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-hash-comment", common::Flaw::HashComment)
}
