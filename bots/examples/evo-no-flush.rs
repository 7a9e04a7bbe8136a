//! `evo-no-flush`: plays correctly, but never flushes its output: its
//! sign-up and every reply stay in a buffer that is written to the socket
//! only when the client leaves, after the server has closed the connection
//! (a `PrintWriter` or `makefile('w')` around the socket, never flushed).
//!
//! protocheck must report: `io.timeout` at the sign-up, named as output that
//! is not flushed (the sign-up arrives only once protocheck closes the
//! connection, from a client that used no CPU meanwhile).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-no-flush", common::Flaw::NoFlush)
}
