//! `dtext-attack-keeps-n`: reads `discard n` as "keep n": against militia it discards all but n
//! cards (3 of a 5-card hand). Otherwise identical to `dtext-correct`.
//!
//! protocheck must report: `dominion-text.attack.wrong-count`: "A discard reply must name exactly
//! the requested number of cards."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::AttackKeepsN)
}
