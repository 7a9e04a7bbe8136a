//! `dtext-answers-info`: answers its own end-of-turn summary `playerK gained …` with `ok`
//! (§9.2 "Answering informational lines"). Otherwise identical to
//! `dtext-correct`; the first turn on which it buys or gains shows it.
//!
//! protocheck must report: `io.unexpected-output`: "The bot must write no non-blank line when no
//! reply is due: nothing in answer to `supply`, info lines or `game
//! kingdom-cards`, and no second line after a reply." (By arrival time
//! §1.3 also allows `grammar.not-a-reply` when a request to the bot follows
//! the `gained` line at once; protocheck listens before each opponent's
//! turn, so the line is normally seen as unexpected output.)

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::AnswersInfo)
}
