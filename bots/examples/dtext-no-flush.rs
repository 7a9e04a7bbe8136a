//! `dtext-no-flush`: writes through a 64 KiB buffer that is flushed only at exit (§9.2
//! "Missing flush"): its name reply arrives only when protocheck has given
//! up and closed its input. Otherwise identical to `dtext-correct`.
//!
//! protocheck must report: `io.timeout` on the name request (the report hints at flushing):
//! "Each reply line … must be complete, LF included, within `--timeout`
//! (`--startup-timeout` for the first)".

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::NoFlush)
}
