//! `dtext-version-two`: answers `player playerK version 1` with its own version,
//! `player playerK version 2` (§9.1 item 3). Otherwise identical to
//! `dtext-correct`.
//!
//! protocheck must report: `dominion-text.handshake.version-echo`: "The answer to `player <seat>
//! version 1` must repeat it exactly; otherwise the game stops."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::VersionEcho)
}
