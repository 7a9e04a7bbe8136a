//! `qtp-slow-boardsize`: sleeps 3 s before answering each `boardsize`
//! (`QTP_BOT_DELAY_MS` overrides it); otherwise identical to `qtp-correct`.
//!
//! The referee stops waiting for an acknowledgement after 2 s: protocheck
//! must report `quoridor.time.ack` (warn) on an idle machine and on a
//! loaded one alike, with both the wall and the bot's own time.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-slow-boardsize", common::Flaw::SlowBoardsize)
}
