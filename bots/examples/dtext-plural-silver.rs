//! `dtext-plural-silver`: writes silver as `silvers` in its buys (`play-reply buy silvers`), a
//! name from its own display table. Otherwise identical to `dtext-correct`;
//! its first silver buy shows it.
//!
//! protocheck must report: `dominion-text.grammar.unknown-card`: "Every card token must be one of
//! the 17 supply card names."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::UnknownCard)
}
