//! `qtp-no-flush`: never flushes stdout; its responses stay in a 64 KiB
//! buffer written out only when it exits (at `quit` or end of input), as a
//! C engine using stdio on a pipe, or a Python engine without `flush=True`.
//! Otherwise identical to `qtp-correct`.
//!
//! protocheck must report: `io.timeout` at the first command (the engine is
//! blocked reading its input with the response due), named as unflushed
//! output: once protocheck closes its input, the engine exits and its
//! response arrives at once.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-no-flush", common::Flaw::NoFlush)
}
