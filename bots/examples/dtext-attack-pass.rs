//! `dtext-attack-pass`: answers every attack request with `play-reply pass`, as if it were a
//! turn (§9.1 item 27). Otherwise identical to `dtext-correct`.
//!
//! protocheck must report: `dominion-text.grammar.wrong-context`: "`discard` and `reaction` answer
//! only attack requests; `pass`, `buy` and `action` answer only play-turn
//! requests."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::AttackPass)
}
