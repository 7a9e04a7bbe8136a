//! `kalah-ignores-swap`: after being swapped (`CHANGE;SWAP;…;YOU`) it keeps
//! choosing its holes from the South row it started with, although it is now
//! North; otherwise identical to `kalah-correct`.
//!
//! To fail fast and deterministically it prefers a hole that is non-empty in
//! its old (South) row and empty in its new (North) row whenever one exists.
//!
//! Mimics (kalah.md §9.2) "Ignoring the swap: the agent keeps playing the row
//! it started with, so sooner or later it names an empty hole."
//!
//! protocheck must report: `kalah.move.empty-hole` (fail), with the hint "did
//! the bot miss a swap?". Only when protocheck's opponent swaps (the bot is
//! South); without a swap the bot plays correctly.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::IgnoresSwap)
}
