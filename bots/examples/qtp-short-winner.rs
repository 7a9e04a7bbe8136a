//! `qtp-short-winner`: `winner` answers with the document's short forms
//! `= f`, `= t w` and `= t b`; otherwise identical to `qtp-correct`.
//!
//! Mimics a reading of the document's booleans and colours (`t`/`f`, `w`/`b`)
//! that the referee does not accept (quoridor.md §7.11: it compares exactly
//! `true white`, `true black` and `false`).
//!
//! protocheck must report: `quoridor.winner.answer` (fail).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-short-winner", common::Flaw::ShortWinner)
}
