//! `kalah-exit-nonzero`: exits with status 3 after `END`. Otherwise identical
//! to `kalah-correct`.
//!
//! Mimics (kalah.md §9.2) "No end-of-game sweep in the agent's own simulation:
//! the agent asserts that its predicted board equals the CHANGE state, so it
//! crashes (non-zero exit)" at the end of the game.
//!
//! protocheck must report: `kalah.end.exit-status` (warn).

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::ExitNonzero)
}
