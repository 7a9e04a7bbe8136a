//! `kalah-move-after-swap`: as the original North it sends `SWAP` and, at
//! once, a move (it thinks the swap leaves it to move). Otherwise identical to
//! `kalah-correct`; run it with `KALAH_BOT_SWAP=always` to make it swap.
//!
//! Mimics (kalah.md §4) a bot that does not know the swapper is told nothing
//! and waits for the new North's move.
//!
//! protocheck must report, with its default options: `kalah.turn.move-after-swap`
//! (fail).

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::MoveAfterSwap)
}
