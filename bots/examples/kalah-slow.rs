//! `kalah-slow`: sleeps before every reply, 3 s by default
//! (`KALAH_BOT_DELAY_MS` overrides it). Otherwise identical to `kalah-correct`.
//!
//! Mimics (kalah.md §9.2) "Very slow replies (several seconds per move) from a
//! search running in an interpreted language."
//!
//! protocheck must report: `io.timeout` (fail) when `--timeout` (and
//! `--startup-timeout` for the first reply as South) is shorter than the delay,
//! for example `--timeout 1s`. With the default 10 s it passes.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::Slow)
}
