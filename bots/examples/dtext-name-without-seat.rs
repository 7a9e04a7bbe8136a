//! `dtext-name-without-seat`: answers `player playerK name` with `player dtext-name-without-seat`,
//! leaving out the seat (§9.1 item 2). Otherwise identical to
//! `dtext-correct`.
//!
//! protocheck must report: `dominion-text.handshake.name-reply` (warn): "The answer to `player
//! <seat> name` should be `player <seat> <bot-name>` with the seat received
//! and a non-empty name; otherwise the bot is named `PLAYERN`."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::NameReply)
}
