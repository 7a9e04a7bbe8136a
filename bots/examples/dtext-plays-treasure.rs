//! `dtext-plays-treasure`: with actions left and no action card in hand it "plays" its first
//! treasure as an action (`play-reply action copper`), as a bot that
//! believes treasures must be played explicitly (§9.2, D8). Otherwise
//! identical to `dtext-correct`; its first turn shows it.
//!
//! protocheck must report: `dominion-text.action.not-action-card`: "The card after `action` must
//! be an action card (one action is consumed otherwise)."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::ActionTreasure)
}
