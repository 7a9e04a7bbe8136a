//! `qtp-stray-after-answer`: after each `genmove` answer, writes a debug
//! line `DEBUG played <move>` (no `#`) late, when the next command has
//! arrived, before answering it; otherwise identical to `qtp-correct`.
//!
//! The stray line reaches protocheck while the next command's response is
//! due. The referee reads past it (quoridor.md §6, decision 10): a warning,
//! and the next response is judged as usual.
//!
//! protocheck must report: `io.unexpected-output` (warn; fail with
//! `--strict`) and nothing else; in a match, no forfeit.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-stray-after-answer", common::Flaw::StrayAfterAnswer)
}
