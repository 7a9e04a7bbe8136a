//! `kalah-move-after-end`: sends one more `MOVE` after the game is over: right
//! after `CHANGE;…;END`, or (if it never got that) after `END`, for example on
//! the abort path (`CHANGE;…;YOU`, its move, then `END`). Then it exits 0.
//! Otherwise identical to `kalah-correct`.
//!
//! Mimics (kalah.md §9.2) "An extra MOVE after END: the agent sends a move
//! whenever its 'my turn' flag is set."
//!
//! protocheck must report: `kalah.end.output-after-end` (warn).

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::MoveAfterEnd)
}
