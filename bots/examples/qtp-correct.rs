//! `qtp-correct`: a fully conforming QTP engine (quoridor.md §1–§5, decisions
//! of §7). Nothing is wrong with it; protocheck must report no failure.
//!
//! Run as the referee does: `qtp-correct -seed 42`. `genmove` mostly steps
//! along a shortest path and sometimes places the wall that lengthens the
//! opponent's path most; it is deterministic for a given `-seed`. See
//! `common/mod.rs` for the choices made where the document leaves room.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-correct", common::Flaw::None)
}
