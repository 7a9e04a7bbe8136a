//! `qtp-list-commands-blank`: `list_commands` is answered `= ` LF LF, then
//! the names one per line, then another empty line; otherwise identical to
//! `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2, "Broken framing") "`list_commands` answered as
//! `= ` plus an empty line, with the names after it and extra blank lines".
//!
//! protocheck must report: `quoridor.framing.split-response` (fail), or, if it
//! takes the first empty line as the end of the response,
//! `quoridor.list-commands.content` (fail) with the names as stray output
//! (`io.unexpected-output`).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-list-commands-blank", common::Flaw::ListCommandsBlank)
}
