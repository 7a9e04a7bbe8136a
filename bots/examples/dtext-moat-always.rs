//! `dtext-moat-always`: answers every attack request with `play-reply reaction moat`, moat in
//! hand or not (§9.1 item 26). Otherwise identical to `dtext-correct`.
//!
//! protocheck must report: `dominion-text.attack.moat-not-in-hand`: "`play-reply reaction moat` is
//! allowed only with a moat in hand."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::MoatAlways)
}
