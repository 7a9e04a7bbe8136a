//! `dtext-attack-curses`: against militia it discards n curses, the cards it would most like to
//! lose, without looking at its hand. Otherwise identical to
//! `dtext-correct` (it reveals a moat when it holds one).
//!
//! protocheck must report: `dominion-text.attack.not-in-hand`: "The discarded cards must be in hand,
//! counted as a multiset."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::AttackCurses)
}
