//! `qtp-quit-without-response`: on `quit` it exits (status 0) at once,
//! without answering: no `=`, no empty line. Otherwise identical to
//! `qtp-correct`.
//!
//! Mimics (quoridor.md §5, decision 17) an engine that treats `quit` as
//! "stop now" and forgets that the document wants the full response before
//! the connection closes.
//!
//! protocheck must report: `quoridor.quit.response` (fail), saying that
//! `quit` was sent; never `io.crash` "before `quit`".

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run(
        "qtp-quit-without-response",
        common::Flaw::QuitWithoutResponse,
    )
}
