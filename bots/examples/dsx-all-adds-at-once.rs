//! `dsx-all-adds-at-once`: writes all its adds in one write, `(add copper)(add
//! copper)(add copper)`, then stays silent for the `(move …)`s those extra
//! plays were meant to answer. The reference cannot see this (it reads each
//! play as the reply to the next `(move …)`), so this bot plays whole games
//! there; the document's one-play-per-move rule forbids it (§1.3, D9).
//!
//! Mimics: §9.1 #4 "two plays in one write".
//!
//! protocheck must report: `io.unexpected-output`, on its first move (every
//! opening hand holds two or more coppers).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-all-adds-at-once", common::Flaw::AllAddsAtOnce)
}
