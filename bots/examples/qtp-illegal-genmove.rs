//! `qtp-illegal-genmove`: `genmove` answers the square its own pawn stands
//! on, which is never a legal move, and plays nothing; otherwise identical
//! to `qtp-correct`.
//!
//! protocheck must report: `quoridor.genmove.illegal` (fail) at the first
//! `genmove`, in every scenario that asks one: never the rule a scenario
//! probes, `quoridor.state.failed-unchanged` after an unrelated refusal, or
//! `scenario.expect.matches` before the move rule (issue 26.7).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-illegal-genmove", common::Flaw::IllegalGenmove)
}
