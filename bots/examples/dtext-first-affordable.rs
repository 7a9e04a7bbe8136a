//! `dtext-first-affordable`: plays no action and buys the first affordable entry of the supply line
//! in its order: a curse as long as the curse pile lasts, then copper
//! (§9.2 "Buying the first affordable supply entry, which can be curse or
//! copper").
//!
//! protocheck must report: nothing: "That is legal and must not be flagged" (§9.2, D26 "Curses
//! can be bought").

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::FirstAffordable)
}
