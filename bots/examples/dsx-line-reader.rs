//! `dsx-line-reader`: reads one notification per input line (each line parsed
//! alone): a notification spread over several lines, which the document
//! allows, is not understood (logged on stderr, no reply). Canonical,
//! single-line notifications (all the reference sends) work.
//!
//! Mimics: §9.2 "several student bots read one line per notification".
//!
//! protocheck must report: `dominion-sexp.robust.extra-whitespace`, only in
//! the robustness scenario with multi-line notifications (a warning: fails
//! only under `--strict`).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-line-reader", common::Flaw::LineReader)
}
