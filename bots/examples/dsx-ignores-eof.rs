//! `dsx-ignores-eof`: does not exit when its stdin is closed at the end of the
//! game: it stays idle (sleeping) until killed.
//!
//! Mimics: a read loop that treats end of input as "nothing yet" (§5).
//!
//! protocheck must report: `io.no-exit`, at the end of every game (a
//! warning: fails only under `--strict`).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-ignores-eof", common::Flaw::IgnoresEof)
}
