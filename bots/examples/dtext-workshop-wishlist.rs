//! `dtext-workshop-wishlist`: treats workshop like a buy and names a wish
//! list, the card it wants and then silver
//! (`play-reply action workshop smithy silver`). Otherwise identical to
//! `dtext-correct`; its first workshop shows it.
//!
//! protocheck must report: `dominion-text.grammar.extra-tokens`: "No tokens
//! beyond the grammar: none after `pass`, none after market/militia/moat/
//! smithy/village/woodcutter, at most two after mine/remodel, at most one
//! after workshop."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::ExtraTokens)
}
