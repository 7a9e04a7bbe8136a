//! `qtp-stray-before-answer`: writes a debug line `DEBUG genmove <colour>`
//! (no `#`) before each `genmove` response; otherwise identical to
//! `qtp-correct`.
//!
//! The referee reads past every line that does not start with `=` and plays
//! the answer that follows (quoridor.md §6, decision 10): a stray line is a
//! warning, not a response without status.
//!
//! protocheck must report: `io.unexpected-output` (warn; fail with
//! `--strict`) and nothing else; in a match, no forfeit.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-stray-before-answer", common::Flaw::StrayBeforeAnswer)
}
