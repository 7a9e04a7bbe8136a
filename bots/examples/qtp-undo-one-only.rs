//! `qtp-undo-one-only`: `undo k` takes back exactly one move whatever k is
//! (k greater than the history is still refused); otherwise identical to
//! `qtp-correct`.
//!
//! Mimics a common `undo` defect (quoridor.md §9.2 lists crashes and
//! unflushed answers on `undo`; this one ignores the count).
//!
//! protocheck must report: `quoridor.undo.restores` (fail), e.g. with 7 moves
//! played `undo 6` then `undo 5` is accepted instead of `? cannot undo`
//! (which may also show as `quoridor.undo.cannot`).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-undo-one-only", common::Flaw::UndoOneOnly)
}
