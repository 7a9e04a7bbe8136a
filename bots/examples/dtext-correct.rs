//! `dtext-correct`: conforms to `shared/rules/dominion-text.md` in every
//! seat of 2–4 players. It buys and plays every kingdom card over a game
//! (cellar, market, militia, mine, moat, remodel, smithy, village,
//! woodcutter, workshop) with correct arguments in every situation, answers
//! attack requests (moat when it holds one, else exactly n of its worst
//! cards), stays silent on every info line and exits 0 at end of input.
//!
//! protocheck must report: nothing, not even a warning.

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::None)
}
