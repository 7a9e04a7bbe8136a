//! `evo-one-based-cards`: counts hand positions from 1 in its Action4 (every
//! card index is one too high).
//!
//! Rules digest §2.6: card indices are 0-based positions in the latest
//! `start`'s hand. At its first `choose` (4 cards, all used by the strategy)
//! one index equals the hand size.
//!
//! protocheck must report: `evolution.choose.card-out-of-range` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-one-based-cards", common::Flaw::OneBasedCards)
}
