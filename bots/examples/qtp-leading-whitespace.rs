//! `qtp-leading-whitespace`: like the reference engine, a command with
//! arguments after leading whitespace (`  playmove white E2`, a tab first) is
//! answered `? invalid syntax`, while a bare `  name` works; otherwise
//! identical to `qtp-correct`.
//!
//! The document requires leading whitespace to be ignored, but the reference
//! engine (naive 1.1.47.beta) fails it and the referee never sends it
//! (quoridor.md §7 decision 19).
//!
//! protocheck must report: `quoridor.input.leading-whitespace` (warn; fail
//! with `--strict`) and nothing else.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-leading-whitespace", common::Flaw::LeadingWhitespace)
}
