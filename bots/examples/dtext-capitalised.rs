//! `dtext-capitalised`: capitalises the card names it buys (`play-reply buy Silver`, `buy Gold`),
//! as printed on the cards. Otherwise identical to `dtext-correct`; its
//! first buy shows it.
//!
//! protocheck must report: `dominion-text.grammar.case`: "Keywords and card names must be
//! lowercase."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::Case)
}
