//! `kalah-slow-opp-reply`: thinks `KALAH_BOT_DELAY_MS` (default 30 ms)
//! before every move, and after every `…;OPP` for its own move it thinks as
//! long again and sends another move: it reads the turn field as "my move
//! was accepted, go on". Otherwise identical to `kalah-correct`.
//!
//! Mimics a bot that misreads the turn field, and is as slow to speak out of
//! turn as to answer a due turn (while it thinks it is asleep, so protocheck
//! cannot prove it idle and must listen long enough).
//!
//! protocheck must report, with its default options: `kalah.turn.no-extra-turn`
//! (fail) after the first `…;OPP`.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::SlowOppReply)
}
