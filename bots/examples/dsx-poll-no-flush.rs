//! `dsx-poll-no-flush`: never flushes its plays (a 64 KiB buffer written
//! only at exit), and waits for input asleep in `poll()` with a timeout, in
//! a loop, as GHC's I/O manager does: never blocked in `read`, and using no
//! CPU time while its play is due. Otherwise identical to `dsx-correct`.
//!
//! Mimics: a Haskell player that never flushes (issue 32 §2).
//!
//! protocheck must report: `io.timeout` on its first move, named as output
//! that is not flushed (its play arrives as soon as protocheck closes its
//! input), never "busy" or "too slow".

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-poll-no-flush", common::Flaw::PollNoFlush)
}
