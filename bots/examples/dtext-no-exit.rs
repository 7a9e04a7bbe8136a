//! `dtext-no-exit`: at end of input keeps looping on its read, which returns nothing at once
//! (the starter bot's `while stdin is not closed: read a line`, §9.2 "Busy
//! loop at end of input"); it sleeps 1 ms per round so as not to burn a
//! core, which changes nothing for protocheck. Otherwise identical to
//! `dtext-correct`.
//!
//! protocheck must report: `io.no-exit` (warn): "After protocheck closes its stdin at the end of
//! the game, the bot should exit within the grace period (default 2 s); any
//! exit status is fine." protocheck kills its process group.

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::NoExit)
}
