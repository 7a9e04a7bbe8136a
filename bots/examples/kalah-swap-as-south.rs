//! `kalah-swap-as-south`: sends `SWAP` as its first message as South (in reply
//! to `START;South`). Otherwise identical to `kalah-correct`.
//!
//! Mimics the pie-rule timing mistakes of kalah.md §3.7 ("not South"): an agent
//! that offers the swap as the starting player.
//!
//! protocheck must report: `kalah.swap.not-allowed` (fail), when the bot is
//! South. As North it plays correctly.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::SwapAsSouth)
}
