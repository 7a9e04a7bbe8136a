//! `qtp-token-parser`: parses tokens, not lines: an unknown first token is
//! answered `? unknown command` and the rest of the line is read as a new
//! command, so `1 name` gets two responses; otherwise identical to
//! `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2) "Two responses to one line. `1 name` is answered
//! `? Unknown command` and then `= <name>`, because the parser works on
//! tokens, not lines."
//!
//! protocheck must report: `quoridor.framing.extra-response` (fail), on its
//! GTP-id probe (§7.6).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-token-parser", common::Flaw::TokenParser)
}
