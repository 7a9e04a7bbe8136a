//! `kalah-fixed-seven`: hard-codes Kalah(7,7). It takes the move field of
//! `CHANGE` as the single 8th character of the line, and it reads the state as
//! exactly 16 numbers (extra values dropped, missing ones taken as 0): North
//! row = values 1..7, South row = values 9..15, hole numbers 1..7. Otherwise
//! identical to `kalah-correct`; with `--holes 7` it is correct.
//!
//! Mimics (kalah.md §9.2) "Reading the move field of CHANGE as a single
//! character (the 8th character of the line). This works for n = 7 and breaks
//! for n ≥ 10", and a bot that indexes the 16-number state with constants.
//!
//! protocheck must report, with other sizes:
//! * `--holes 6`: as North, `kalah.move.hole-range` (its "hole 7" is the North
//!   store; it names `MOVE;7` once the store holds seeds, usually on its second
//!   move); as South, `kalah.move.empty-hole` (its row is shifted by one:
//!   its "hole k" is really hole k+1).
//! * n ≥ 10: as South, `kalah.move.empty-hole` (its "South row" starts at North
//!   hole 9). As North only holes 1..7 are ever played, which is legal, so the
//!   bot may survive a game.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::FixedSeven)
}
