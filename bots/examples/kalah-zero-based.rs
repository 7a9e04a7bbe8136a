//! `kalah-zero-based`: writes hole numbers 0-based (`MOVE;0` for hole 1,
//! `MOVE;h-1` for hole h); otherwise identical to `kalah-correct`.
//!
//! Mimics (kalah.md §9.2) "Zero-based holes: the agent sends `MOVE;0` for the
//! first hole."
//!
//! protocheck must report: `kalah.move.hole-range` (fail). As South this
//! happens on the very first reply (the opening is always hole 1, sent as
//! `MOVE;0`). As North it happens the first time the bot picks hole 1 (with
//! Kalah(7,7) after opening 1 that is its first reply, unless it swaps:
//! run it with `KALAH_BOT_SWAP=never`); if the shifted hole happens to be empty
//! first, protocheck reports `kalah.move.empty-hole` instead.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::ZeroBased)
}
