//! `qtp-capital-errors`: error texts are capitalised (`? Illegal move`,
//! `? Unknown command`, `? Cannot undo`, `? Unacceptable size`); otherwise
//! identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2) "Non-standard error texts (`? Illegal move`,
//! …). Harmless to the referee, but a warning."
//!
//! protocheck must report: `quoridor.error.text` (warn; fail with
//! `--strict`).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-capital-errors", common::Flaw::CapitalErrors)
}
