//! `dsx-no-flush`: writes its plays through a 64 KiB buffer that is flushed
//! only at exit.
//!
//! Mimics: §9.2 "Missing flush".
//!
//! protocheck must report: `io.timeout`, on its first move.
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-no-flush", common::Flaw::NoFlush)
}
