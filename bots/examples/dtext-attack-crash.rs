//! `dtext-attack-crash`: reads the discard count of `play-request attack discard n hand …` after
//! the misspelled keyword `discrad`, finds none and panics (exit 101): the
//! starter bot's misspelled field (§9.2 "Attack handler that crashes").
//! Otherwise identical to `dtext-correct`; the first attack request kills it.
//!
//! protocheck must report: `io.crash`: "The bot must not exit, close its stdout or close its stdin
//! before the game is over, whatever its exit status."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::AttackCrash)
}
