//! `qtp-no-exit-on-quit`: answers `quit` with `= ` and the empty line, then
//! keeps running (it goes on answering commands and does not exit, not even
//! at EOF); otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2) "No exit after `quit`. The engine keeps
//! reading."
//!
//! protocheck must report: `io.no-exit` (fail).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-no-exit-on-quit", common::Flaw::NoExitOnQuit)
}
