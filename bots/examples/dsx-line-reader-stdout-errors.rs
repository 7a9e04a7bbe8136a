//! `dsx-line-reader-stdout-errors`: parses each input line alone, like
//! `dsx-line-reader`, and writes a parse error to stdout for each line it
//! cannot read, without flushing (its plays are flushed). A notification
//! spread over lines gets no play, only errors that reach protocheck when
//! the player exits at end of input. Otherwise identical to `dsx-correct`.
//!
//! Mimics: a Haskell player that parses one line at a time with Parsec and
//! prints its parse errors with `putStrLn` (issue 32 §2).
//!
//! protocheck must report: `dominion-sexp.robust.extra-whitespace` (warn),
//! only in the robustness scenario with multi-line notifications (the late
//! parse errors are no answer to it); it passes generated games.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run(
        "dsx-line-reader-stdout-errors",
        common::Flaw::LineReaderStdoutErrors,
    )
}
