//! `dsx-answers-moved`: acknowledges every `(moved name play)` by echoing the
//! play it was told about.
//!
//! Mimics: "one reply per notification" loops (§9.1 #5, §2: a player in wait
//! mode writes nothing).
//!
//! protocheck must report: `io.unexpected-output`, at the first `(moved …)`
//! it receives (in any seat: seat 0 gets one after the second player's
//! first play).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-answers-moved", common::Flaw::AnswersMoved)
}
