//! `dsx-mine-after-add`: plays treasures before actions: holding a mine and a
//! treasure, it first adds the treasure, then plays `(act mine … silver)`
//! with `(actions 0)`.
//!
//! Mimics: treasure phase before action phase (§9.1 #14: "mine after add").
//!
//! protocheck must report: `dominion-sexp.mine.no-actions`, in the first
//! turn it holds its mine (bought at its first 5 coins) with a treasure.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-mine-after-add", common::Flaw::MineAfterAdd)
}
