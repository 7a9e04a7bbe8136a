//! `kalah-crlf`: ends every line with CR LF (`MOVE;3\r\n`). Otherwise
//! identical to `kalah-correct`.
//!
//! Mimics a Windows-built agent or one that prints with `\r\n` (kalah.md §1:
//! "A CR before the LF is part of the message", so the reference rejects it).
//!
//! protocheck must report: `kalah.framing.crlf` (fail) on the first reply.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::Crlf)
}
