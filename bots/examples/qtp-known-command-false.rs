//! `qtp-known-command-false`: `known_command` without a command name is
//! answered `= false`; otherwise identical to `qtp-correct`.
//!
//! Not a flaw: the document says `known_command` "never fails", so `= false`
//! is right, and the reference engine's `? false` is accepted too
//! (quoridor.md §9.1 #11, decision 5).
//!
//! protocheck must report nothing, not even with `--strict` (it once failed
//! this engine under `quoridor.syntax.malformed`).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-known-command-false", common::Flaw::KnownCommandFalse)
}
