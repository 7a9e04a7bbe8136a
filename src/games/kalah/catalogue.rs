//! The Kalah check catalogue: one [`RuleInfo`] per row of
//! `shared/rules/kalah.md` §8, the shared `io.*` ids included with the
//! severities this game gives them.
//!
//! Every finding protocheck reports about a Kalah bot names one of these, so
//! the report can quote the requirement it enforces. The `spec` strings are the
//! table's requirement sentences verbatim (markdown backticks included); a
//! test re-reads the table and fails if an id, a severity or a sentence drifts.

use crate::shared_rules::{self, Catalogue};
use crate::verdict::{RuleInfo, Severity};

pub static FRAMING_CRLF: RuleInfo = RuleInfo {
    id: "kalah.framing.crlf",
    severity: Severity::Fail,
    spec: "A message ends with a single LF; there is no CR before it (the reference keeps the CR and rejects the message).",
};

pub static FRAMING_WHITESPACE: RuleInfo = RuleInfo {
    id: "kalah.framing.whitespace",
    severity: Severity::Fail,
    spec: "A message contains no space or tab anywhere, leading, trailing or inside.",
};

pub static FRAMING_EMPTY_LINE: RuleInfo = RuleInfo {
    id: "kalah.framing.empty-line",
    severity: Severity::Fail,
    spec: "The bot never writes an empty line (the reference treats it as an invalid message).",
};

pub static FRAMING_NO_NEWLINE: RuleInfo = RuleInfo {
    id: "kalah.framing.no-newline",
    severity: Severity::Fail,
    spec: "Every message is terminated by LF; text left without LF when the bot exits or stops writing is never a message.",
};

pub static GRAMMAR_UNKNOWN: RuleInfo = RuleInfo {
    id: "kalah.grammar.unknown",
    severity: Severity::Fail,
    spec: "Every message is `MOVE;<hole>` or `SWAP`, in upper case, with `;` as the separator.",
};

pub static GRAMMAR_HOLE_NOT_NUMBER: RuleInfo = RuleInfo {
    id: "kalah.grammar.hole-not-number",
    severity: Severity::Fail,
    spec: "The text after `MOVE;` is a decimal integer (nothing else, not empty, within 32-bit range, ASCII digits).",
};

pub static MOVE_NUMBER_FORMAT: RuleInfo = RuleInfo {
    id: "kalah.move.number-format",
    severity: Severity::Warn,
    spec: "The hole is written as `1`..`n` with no sign and no leading zeros (the reference also accepts `03` and `+3`).",
};

pub static MOVE_HOLE_RANGE: RuleInfo = RuleInfo {
    id: "kalah.move.hole-range",
    severity: Severity::Fail,
    spec: "The hole number is between 1 and n inclusive.",
};

pub static MOVE_EMPTY_HOLE: RuleInfo = RuleInfo {
    id: "kalah.move.empty-hole",
    severity: Severity::Fail,
    spec: "The hole on the bot's current side holds at least one seed. When the same hole is non-empty on the other side, the report adds the hint \"did the bot miss a swap?\".",
};

pub static SWAP_NOT_ALLOWED: RuleInfo = RuleInfo {
    id: "kalah.swap.not-allowed",
    severity: Severity::Fail,
    spec: "SWAP is sent only as North's first message, in reply to the first `CHANGE;m;…;YOU` after South's opening. Never as South, never later, never by a swapped starter.",
};

pub static TURN_NO_EXTRA_TURN: RuleInfo = RuleInfo {
    id: "kalah.turn.no-extra-turn",
    severity: Severity::Fail,
    spec: "After its own move is answered with `…;OPP` (in particular the opening move that ended in the store), the bot sends nothing until it gets `…;YOU`. This is a specific diagnosis of unexpected output.",
};

pub static TURN_MOVE_AFTER_SWAP: RuleInfo = RuleInfo {
    id: "kalah.turn.move-after-swap",
    severity: Severity::Fail,
    spec: "After sending SWAP, the bot sends nothing until it gets `…;YOU` (it does not keep the turn).",
};

pub static TURN_MISSED_TURN: RuleInfo = RuleInfo {
    id: "kalah.turn.missed-turn",
    severity: Severity::Fail,
    spec: "After `…;YOU` that follows the bot's own move (extra turn) or `CHANGE;SWAP;…;YOU`, the bot replies. This is a specific diagnosis of a timeout.",
};

pub static IO_UNEXPECTED_OUTPUT: RuleInfo = shared_rules::IO_UNEXPECTED_OUTPUT.worded(
    "The bot writes nothing before START, nothing after `START;North` or `…;OPP`, and exactly one line per reply that is due.",
);

pub static IO_TIMEOUT: RuleInfo = shared_rules::IO_TIMEOUT.worded(
    "Every due reply arrives complete (with LF) within `--timeout`; the first reply as South within `--startup-timeout`.",
);

pub static TIME_BUDGET: RuleInfo = RuleInfo {
    id: "kalah.time.budget",
    severity: Severity::Fail,
    spec: "The bot's cumulative reply time in one match stays within the reference's 3,600 s budget (configurable).",
};

pub static IO_CRASH: RuleInfo = shared_rules::IO_CRASH.worded(
    "The bot keeps running, with stdin and stdout open, until it has received `CHANGE;…;END` or `END`.",
);

pub static IO_LINE_TOO_LONG: RuleInfo =
    shared_rules::IO_LINE_TOO_LONG.worded("No output line exceeds 64 KiB.");

pub static IO_INVALID_UTF8: RuleInfo =
    shared_rules::IO_INVALID_UTF8.worded("Output is valid UTF-8 (and any valid message is ASCII).");

pub static PROCESS_STDERR_OVERFLOW: RuleInfo = RuleInfo {
    id: "kalah.process.stderr-overflow",
    severity: Severity::Fail,
    spec: "The bot writes at most 64 KiB to stderr over one match (the reference never drains stderr, so more would block the bot).",
};

pub static END_OUTPUT_AFTER_END: RuleInfo = RuleInfo {
    id: "kalah.end.output-after-end",
    severity: Severity::Warn,
    spec: "The bot writes nothing after `CHANGE;…;END` or `END`.",
};

pub static IO_NO_EXIT: RuleInfo = shared_rules::IO_NO_EXIT
    .worded("The bot exits by itself within the grace period (default 2 s) after `END`.");

pub static END_EXIT_STATUS: RuleInfo = RuleInfo {
    id: "kalah.end.exit-status",
    severity: Severity::Warn,
    spec: "The bot exits with status 0 after the game ends (a crash after the final CHANGE is ignored by the reference).",
};

pub static PROCESS_EOF: RuleInfo = RuleInfo {
    id: "kalah.process.eof",
    severity: Severity::Warn,
    spec: "The bot exits when stdin reaches EOF without END, rather than spinning or hanging.",
};

/// The kalah rows, in the order of the table in kalah.md §8 (the shared `io.*`
/// ids as kalah words them); `shared_rules::Catalogue` adds the rest.
pub static CATALOGUE: Catalogue = Catalogue::new(&[
    &FRAMING_CRLF,
    &FRAMING_WHITESPACE,
    &FRAMING_EMPTY_LINE,
    &FRAMING_NO_NEWLINE,
    &GRAMMAR_UNKNOWN,
    &GRAMMAR_HOLE_NOT_NUMBER,
    &MOVE_NUMBER_FORMAT,
    &MOVE_HOLE_RANGE,
    &MOVE_EMPTY_HOLE,
    &SWAP_NOT_ALLOWED,
    &TURN_NO_EXTRA_TURN,
    &TURN_MOVE_AFTER_SWAP,
    &TURN_MISSED_TURN,
    &IO_UNEXPECTED_OUTPUT,
    &IO_TIMEOUT,
    &TIME_BUDGET,
    &IO_CRASH,
    &IO_LINE_TOO_LONG,
    &IO_INVALID_UTF8,
    &PROCESS_STDERR_OVERFLOW,
    &END_OUTPUT_AFTER_END,
    &IO_NO_EXIT,
    &END_EXIT_STATUS,
    &PROCESS_EOF,
]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catalogue_check;

    #[test]
    fn ids_are_unique_lowercase_and_dotted() {
        catalogue_check::ids_are_well_formed(CATALOGUE.all(), "kalah");
        assert_eq!(
            CATALOGUE.by_id("kalah.swap.not-allowed"),
            Some(&SWAP_NOT_ALLOWED)
        );
        assert_eq!(CATALOGUE.by_id("kalah.nope"), None);
    }

    #[test]
    fn catalogue_matches_the_kalah_md_table() {
        catalogue_check::matches_rules_doc(
            CATALOGUE.own(),
            "kalah.md",
            "## 8. Catalogue of checks",
            20,
        );
    }
}
