//! `qtp-uppercase-only`: vertices of `playmove`/`playwall` are only
//! understood with an upper-case letter (`e2` is answered `? illegal move`);
//! otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2) "An engine that only understands upper-case
//! vertices. `e2` is computed as a column far off the board and answered
//! `illegal move`."
//!
//! protocheck must report: `quoridor.input.argument-case` (fail).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-uppercase-only", common::Flaw::UppercaseOnly)
}
