//! `qtp-error-without-status`: failure texts are printed without the `?`
//! status (`Error! illegal move` and the empty line); otherwise identical to
//! `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2, "Broken framing") "an error text printed without
//! a `?` (`Error! … out of bounds`)".
//!
//! protocheck must report: `quoridor.framing.status` (fail).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-error-without-status", common::Flaw::ErrorWithoutStatus)
}
