//! `qtp-sticky-winner`: `winner` keeps reporting the last win after
//! `clear_board`/`boardsize` (it is reset only by undoing the winning move);
//! otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2) "A `winner` that survives a new game. The engine
//! still answers `true black` after `clear_board`/`boardsize`."
//!
//! protocheck must report: `quoridor.winner.reset` (fail); a check of the
//! start position after setup may report it as `quoridor.setup.reset`.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-sticky-winner", common::Flaw::StickyWinner)
}
