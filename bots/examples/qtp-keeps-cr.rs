//! `qtp-keeps-cr`: input preprocessing does not delete CR, so a command
//! name followed by CR LF (`name\r`) is an unknown command; otherwise
//! identical to `qtp-correct` (arguments are read leniently, so
//! `boardsize 9\r` still works, as with `atoi`).
//!
//! Mimics (quoridor.md §9.2) "CR not discarded. `name\r` is answered
//! `? unknown command`."
//!
//! protocheck must report: `quoridor.input.crlf` (fail), on `clear_board\r\n`.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-keeps-cr", common::Flaw::KeepsCr)
}
