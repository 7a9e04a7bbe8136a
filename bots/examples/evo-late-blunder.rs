//! `evo-late-blunder`: plays as `evo-correct` until a `start` deals it a
//! carnivore card of food value 5 or more (4 of the deck's 129 cards); from
//! then on its Action4 names the position one past its hand as the food
//! card. A bug only some deals reach, often late in a generated game: the
//! game that shrinking (docs/shrinking.md) replaces by a much shorter one,
//! in another seat or with another deal.
//!
//! protocheck must report: `evolution.choose.card-out-of-range` (fail), at
//! the first `choose` after such a `start`.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-late-blunder", common::Flaw::LateBlunder)
}
