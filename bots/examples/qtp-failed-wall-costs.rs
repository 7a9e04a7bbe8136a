//! `qtp-failed-wall-costs`: a `playwall` refused as illegal still uses up
//! one of that colour's walls; otherwise identical to `qtp-correct`.
//!
//! Mimics the "failed command changes state" defect (quoridor.md §2.3 notes:
//! "A failed command must not change any state"; the document: "A failed
//! command must never change any state").
//!
//! protocheck must report: `quoridor.state.failed-unchanged` (fail): with
//! `walls 1`, a refused `playwall white E1 h` makes the legal
//! `playwall white A5 h` fail too (also visible as
//! `quoridor.playwall.accepts-legal`).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-failed-wall-costs", common::Flaw::FailedWallCosts)
}
