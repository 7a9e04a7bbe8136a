//! `qtp-no-wall-supply`: never checks or decrements the remaining walls;
//! otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2) "No wall-supply check. The engine accepts
//! `playwall` after the colour has run out of walls." Example: `walls 1`,
//! `playwall white A5 h`, then `playwall white C5 h` is accepted.
//!
//! protocheck must report: `quoridor.playwall.supply` (fail). Its `genmove`
//! also keeps placing walls after the supply is used up, which a long game
//! can show as `quoridor.genmove.illegal`.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-no-wall-supply", common::Flaw::NoWallSupply)
}
