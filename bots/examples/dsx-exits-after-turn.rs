//! `dsx-exits-after-turn`: exits with status 0 right after its first
//! `(clean …)`,
//! as if one turn were the whole game.
//!
//! Mimics: §9.1 #24 "bot exits mid-game (status 0 or not)".
//!
//! protocheck must report: `io.crash`, after its first turn (the game
//! cannot end before the provinces run out).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-exits-after-turn", common::Flaw::ExitsAfterTurn)
}
