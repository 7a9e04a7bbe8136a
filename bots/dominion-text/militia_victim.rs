//! `dtext-militia-victim`: names the player it attacks after militia:
//! `play-reply action militia player2` (player1 when it sits elsewhere).
//! Otherwise identical to `dtext-correct`; its first militia shows it.
//!
//! protocheck must report: `dominion-text.grammar.extra-tokens`: "No tokens beyond the grammar:
//! none after `pass`, none after market/militia/moat/smithy/village/
//! woodcutter, at most two after mine/remodel, at most one after
//! workshop."

#[path = "common/mod.rs"]
mod common;

fn main() {
    common::run(common::Flaw::ExtraTokens)
}
