//! `qtp-crash-on-empty-line`: exits with status 1 on an empty input line
//! (nothing before the LF except CR); whitespace-only and comment-only lines
//! are handled correctly; otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2, "Crashes on input") "a segmentation fault on an
//! empty line".
//!
//! protocheck must report: `quoridor.input.empty-line` (fail), reported
//! instead of the generic `io.crash`.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-crash-on-empty-line", common::Flaw::CrashOnEmptyLine)
}
