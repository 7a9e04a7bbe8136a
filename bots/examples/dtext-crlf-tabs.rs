//! `dtext-crlf-tabs`: separates the tokens of every line it writes with tabs and ends each line
//! with CR LF (`player\tplayer1\tdtext-crlf-tabs\r\n`), as a bot written on
//! Windows with a tab-joined writer would. Otherwise identical to
//! `dtext-correct`.
//!
//! protocheck must report: `dominion-text.frame.crlf` and `dominion-text.frame.whitespace`, warnings
//! only (§1.2, D25): "Lines should end with LF alone, not CR LF." / "Tokens
//! should be separated by single spaces, with no tabs and no leading or
//! trailing whitespace." 0 failures; under `--strict` both fail.

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::CrlfTabs)
}
