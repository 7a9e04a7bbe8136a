//! `dtext-workshop-five`: workshop gains the card it wants costing up to 5 instead of 4 (a market
//! or mine while it owns none, `action workshop market`, §9.1 item 21).
//! Otherwise identical to `dtext-correct`.
//!
//! protocheck must report: `dominion-text.workshop.too-expensive`: "The card workshop gains may
//! cost at most 4."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::WorkshopFive)
}
