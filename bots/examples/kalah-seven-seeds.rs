//! `kalah-seven-seeds`: assumes 7 seeds per hole. It keeps its own board,
//! starting from 7 seeds in every hole (the number of holes it takes from the
//! first state string), applies the move of every `CHANGE` to it with the
//! rules of kalah.md §3, and exits with status 1 ("board mismatch") as soon as
//! the engine's state string differs. Otherwise identical to `kalah-correct`.
//!
//! Mimics the course agents that hard-code the seed count (Group2Agent.jar
//! among them) and the §9.2 defect "the agent asserts that its predicted board
//! equals the CHANGE state". Every real match is Kalah(7,7), so the bot is
//! conformant there: protocheck's default run must pass it, with no failure.
//!
//! protocheck must report, on boards with another number of seeds (`--all-sizes`,
//! or `--seeds 4`): `io.crash`, on the first `CHANGE` (its prediction of the
//! opening move is wrong from the first seed count on).

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::SevenSeeds)
}
