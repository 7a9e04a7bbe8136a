//! `qtp-sidestep-through-wall`: `playmove` accepts a diagonal side-step
//! across a wall between the two pawns when the straight jump is blocked too;
//! otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2) "A diagonal side-step through a wall between the
//! pawns. It happens when there is also a wall behind the opponent. With white
//! `E4`, black `E5`, `E5 h` and `D6 h`, the engine accepts
//! `playmove white D5`." (The rule engine stays correct: the wrong side-step is
//! played as a route of legal single steps, undone as one move.)
//!
//! protocheck must report: `quoridor.playmove.rejects-illegal` (fail), reason
//! "side-step through a wall".

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run(
        "qtp-sidestep-through-wall",
        common::Flaw::SidestepThroughWall,
    )
}
