//! `kalah-opening-extra-turn`: believes the opening move earns an extra turn.
//! As South it opens with hole 1; when that opening's last seed lands in its
//! store (always for Kalah(7,7); in general when s = n) it sends a second move
//! right after `CHANGE;1;…;OPP`. Otherwise identical to `kalah-correct`.
//!
//! Mimics (kalah.md §9.2) "Assuming the opening move earns an extra turn: the
//! agent sends a second move right after its opening `MOVE;1`."
//!
//! protocheck must report: `kalah.turn.no-extra-turn` (fail), when the bot is
//! South and n = s (for example the default 7/7). With `--holes 6 --seeds 4`
//! the opening does not reach the store and the bot plays correctly.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::OpeningExtraTurn)
}
