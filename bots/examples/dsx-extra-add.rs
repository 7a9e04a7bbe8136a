//! `dsx-extra-add`: off by one in its add loop: after adding every treasure
//! in hand it writes one more `(add copper)`, with no copper left in hand.
//!
//! Mimics: an add loop running to `<=` the number of treasures.
//!
//! protocheck must report: `dominion-sexp.add.not-in-hand`, on its first
//! turn (every opening hand holds a copper).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-extra-add", common::Flaw::ExtraAdd)
}
