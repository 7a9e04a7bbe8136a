//! `kalah-late-swap`: as North it never swaps on its first move, then sends
//! `SWAP` as its second message (its second turn, which may be the extra turn
//! of its first move). Otherwise identical to `kalah-correct`.
//!
//! Mimics the pie-rule timing mistake of kalah.md §3.7 ("not North later,
//! including on an extra turn after a normal first move"): an agent that counts
//! its own turns wrongly when deciding whether it may swap.
//!
//! protocheck must report: `kalah.swap.not-allowed` (fail), when the bot is
//! North. As South it plays correctly.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::LateSwap)
}
