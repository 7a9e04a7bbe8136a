//! `kalah-eof-message`: when its input ends before `END`, it prints
//! `error: unexpected end of input` on stdout and exits 0. Otherwise
//! identical to `kalah-correct`.
//!
//! Mimics (kalah.md §5, "EOF without END") an agent whose read loop reports
//! end of input on stdout instead of just exiting. The reference never
//! closes an agent's input without END, and reads nothing once a match is
//! over, so the line is never taken as a move.
//!
//! protocheck must report, in `eof-after-opening` and `eof-mid-game`:
//! `kalah.process.eof` (warn), never a move rule such as
//! `kalah.turn.no-extra-turn` or `kalah.turn.move-after-swap`.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::EofMessage)
}
