//! `dsx-brackets`: writes its plays in square brackets, `[add copper]`,
//! which Racket's reader accepts as parentheses but the document's grammar
//! does not (D10). The reference plays the game through.
//!
//! protocheck must report: `dominion-sexp.frame.nonstandard-syntax`, on
//! every play (a warning: fails only under `--strict`).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-brackets", common::Flaw::Brackets)
}
