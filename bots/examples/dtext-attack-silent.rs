//! `dtext-attack-silent`: computes its attack reply and never writes it: the starter bot's handler
//! that returns the reply instead of writing it (§9.2 "… never answers").
//! Otherwise identical to `dtext-correct`.
//!
//! protocheck must report: `io.timeout`: "Each reply line (name, version, play-turn, attack) must be
//! complete, LF included, within `--timeout` …; missing it disqualifies the
//! bot".

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::AttackSilent)
}
