//! `qtp-genmove-not-applied`: `genmove` answers a legal move but does not
//! play it; otherwise identical to `qtp-correct`.
//!
//! Mimics the defect that the referee's flow exposes (quoridor.md §4: "The
//! engine that generated a move is not told that move again; it is expected
//! to have played it already").
//!
//! protocheck must report: `quoridor.genmove.applied` (fail): after
//! `genmove black` answered `= E8`, `playmove black E8` is accepted.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-genmove-not-applied", common::Flaw::GenmoveNotApplied)
}
