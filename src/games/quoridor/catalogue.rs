//! The Quoridor (QTP) check catalogue: one [`RuleInfo`] per row of
//! `shared/rules/quoridor.md` §8, with the default severity and the
//! requirement sentence verbatim. The shared `io.*` ids appear here with the
//! severities this game gives them; where a specific `quoridor.input.*` or
//! `quoridor.framing.*` id applies it is reported instead of the generic `io.*`
//! id, never both.

use crate::shared_rules::{self, Catalogue};
use crate::verdict::{RuleInfo, Severity};

/// `quoridor.framing.status` (fail).
pub static FRAMING_STATUS: RuleInfo = RuleInfo {
    id: "quoridor.framing.status",
    severity: Severity::Fail,
    spec: r#"The first line of every response starts with `=` or `?`."#,
};

/// `quoridor.framing.extra-response` (fail).
pub static FRAMING_EXTRA_RESPONSE: RuleInfo = RuleInfo {
    id: "quoridor.framing.extra-response",
    severity: Severity::Fail,
    spec: r#"Each non-empty command line gets exactly one response; no `=`/`?` line appears when no response is due."#,
};

/// `quoridor.framing.split-response` (fail).
pub static FRAMING_SPLIT_RESPONSE: RuleInfo = RuleInfo {
    id: "quoridor.framing.split-response",
    severity: Severity::Fail,
    spec: r#"A multi-line response (`list_commands`, `showboard`) contains no empty line before its end."#,
};

/// `quoridor.framing.no-terminator` (warn).
pub static FRAMING_NO_TERMINATOR: RuleInfo = RuleInfo {
    id: "quoridor.framing.no-terminator",
    severity: Severity::Warn,
    spec: r#"Every response ends with an empty line (two consecutive newlines)."#,
};

/// `quoridor.framing.space-after-status` (warn).
pub static FRAMING_SPACE_AFTER_STATUS: RuleInfo = RuleInfo {
    id: "quoridor.framing.space-after-status",
    severity: Severity::Warn,
    spec: r#"Text after `=` or `?` on the first line is separated from it by one space (`= E2`, not `=E2`)."#,
};

/// `quoridor.framing.whitespace-line` (warn).
pub static FRAMING_WHITESPACE_LINE: RuleInfo = RuleInfo {
    id: "quoridor.framing.whitespace-line",
    severity: Severity::Warn,
    spec: r#"The terminating line is truly empty, not whitespace-only."#,
};

/// `quoridor.framing.output-chars` (warn).
pub static FRAMING_OUTPUT_CHARS: RuleInfo = RuleInfo {
    id: "quoridor.framing.output-chars",
    severity: Severity::Warn,
    spec: r#"Output uses SPACE as the only whitespace and contains no control characters other than CR and LF."#,
};

/// `io.unexpected-output` (warn).
pub static IO_UNEXPECTED_OUTPUT: RuleInfo = shared_rules::IO_UNEXPECTED_OUTPUT.worded_as(
    Severity::Warn,
    r#"The engine writes no stray lines outside responses, `#` comment lines included (the referee skips them); blank lines between responses are allowed."#,
);

/// `io.timeout` (fail).
pub static IO_TIMEOUT: RuleInfo = shared_rules::IO_TIMEOUT.worded(
    r#"Every response is complete within `--timeout` (default 30 s); the first within `--startup-timeout`."#,
);

/// `quoridor.time.ack` (warn).
pub static TIME_ACK: RuleInfo = RuleInfo {
    id: "quoridor.time.ack",
    severity: Severity::Warn,
    spec: r#"Responses to commands other than `genmove` arrive within 2 s (the referee's read limit)."#,
};

/// `quoridor.time.game` (fail).
pub static TIME_GAME: RuleInfo = RuleInfo {
    id: "quoridor.time.game",
    severity: Severity::Fail,
    spec: r#"The engine's total `genmove` time in one game stays within 20·N s."#,
};

/// `io.crash` (fail).
pub static IO_CRASH: RuleInfo =
    shared_rules::IO_CRASH.worded(r#"The engine does not exit or close its stdout before `quit`."#);

/// `io.line-too-long` (fail).
pub static IO_LINE_TOO_LONG: RuleInfo = shared_rules::IO_LINE_TOO_LONG
    .worded(r#"No output line exceeds 64 KiB, and no response exceeds the line-count cap."#);

/// `io.invalid-utf8` (fail).
pub static IO_INVALID_UTF8: RuleInfo = shared_rules::IO_INVALID_UTF8
    .worded(r#"Output is valid UTF-8 (the referee abandons the match otherwise)."#);

/// `quoridor.input.crlf` (fail).
pub static INPUT_CRLF: RuleInfo = RuleInfo {
    id: "quoridor.input.crlf",
    severity: Severity::Fail,
    spec: r#"A command terminated by CR LF is handled exactly as with LF."#,
};

/// `quoridor.input.whitespace` (fail).
pub static INPUT_WHITESPACE: RuleInfo = RuleInfo {
    id: "quoridor.input.whitespace",
    severity: Severity::Fail,
    spec: r#"Tabs, repeated spaces between tokens, and trailing whitespace are accepted."#,
};

/// `quoridor.input.leading-whitespace` (warn): the reference engine fails
/// it, so it is a warning (quoridor.md §7 decision 19).
pub static INPUT_LEADING_WHITESPACE: RuleInfo = RuleInfo {
    id: "quoridor.input.leading-whitespace",
    severity: Severity::Warn,
    spec: r#"Whitespace before the command name is ignored (the document requires it; the reference engine answers `? invalid syntax`, decision 19)."#,
};

/// `quoridor.input.empty-line` (fail).
pub static INPUT_EMPTY_LINE: RuleInfo = RuleInfo {
    id: "quoridor.input.empty-line",
    severity: Severity::Fail,
    spec: r#"An empty line produces no response and does not disturb later responses."#,
};

/// `quoridor.input.comment` (fail).
pub static INPUT_COMMENT: RuleInfo = RuleInfo {
    id: "quoridor.input.comment",
    severity: Severity::Fail,
    spec: r#"A `#` comment line produces no response; text from a `#` that follows whitespace to the end of a command line is ignored."#,
};

/// `quoridor.input.glued-comment` (warn): the reference engine fails it
/// (quoridor.md §7 decision 19).
pub static INPUT_GLUED_COMMENT: RuleInfo = RuleInfo {
    id: "quoridor.input.glued-comment",
    severity: Severity::Warn,
    spec: r#"A `#` directly after a token also starts a comment (`name#x` is `name`); the reference engine does not do this (decision 19)."#,
};

/// `quoridor.input.whitespace-only-line` (warn).
pub static INPUT_WHITESPACE_ONLY_LINE: RuleInfo = RuleInfo {
    id: "quoridor.input.whitespace-only-line",
    severity: Severity::Warn,
    spec: r#"A line of only spaces produces no response (`? unknown command` is tolerated as a warning)."#,
};

/// `quoridor.input.pipelined` (fail).
pub static INPUT_PIPELINED: RuleInfo = RuleInfo {
    id: "quoridor.input.pipelined",
    severity: Severity::Fail,
    spec: r#"Several commands sent in one write are answered one by one, in order."#,
};

/// `quoridor.input.argument-case` (fail).
pub static INPUT_ARGUMENT_CASE: RuleInfo = RuleInfo {
    id: "quoridor.input.argument-case",
    severity: Severity::Fail,
    spec: r#"Colours, vertices and orientations are accepted in any case, and the short forms `w`, `b`, `h` and `v` work."#,
};

/// `quoridor.command.unknown` (fail).
pub static COMMAND_UNKNOWN: RuleInfo = RuleInfo {
    id: "quoridor.command.unknown",
    severity: Severity::Fail,
    spec: r#"An unknown command gets a `?` response and changes nothing."#,
};

/// `quoridor.command.name-case` (warn).
pub static COMMAND_NAME_CASE: RuleInfo = RuleInfo {
    id: "quoridor.command.name-case",
    severity: Severity::Warn,
    spec: r#"A command name in the wrong case (`NAME`) is treated as unknown (answering it is a tolerated extension)."#,
};

/// `quoridor.error.text` (warn).
pub static ERROR_TEXT: RuleInfo = RuleInfo {
    id: "quoridor.error.text",
    severity: Severity::Warn,
    spec: r#"Failures use the standard messages: `unknown command`, `illegal move`, `cannot undo`, `unacceptable size`."#,
};

/// `quoridor.syntax.malformed` (fail).
pub static SYNTAX_MALFORMED: RuleInfo = RuleInfo {
    id: "quoridor.syntax.malformed",
    severity: Severity::Fail,
    spec: r#"A command with missing or malformed arguments gets a `?` response (any text), changes nothing, and does not crash the engine."#,
};

/// `quoridor.syntax.bad-orientation` (warn).
pub static SYNTAX_BAD_ORIENTATION: RuleInfo = RuleInfo {
    id: "quoridor.syntax.bad-orientation",
    severity: Severity::Warn,
    spec: r#"`playwall` with an orientation other than h, v, horizontal or vertical is refused with `?`."#,
};

/// `quoridor.name.response` (fail).
pub static NAME_RESPONSE: RuleInfo = RuleInfo {
    id: "quoridor.name.response",
    severity: Severity::Fail,
    spec: r#"`name` succeeds with a non-empty name."#,
};

/// `quoridor.known-command.answer` (fail).
pub static KNOWN_COMMAND_ANSWER: RuleInfo = RuleInfo {
    id: "quoridor.known-command.answer",
    severity: Severity::Fail,
    spec: r#"`known_command` answers `= true` for each of the 13 QTP commands, and `= false` or `? false` for an unknown name."#,
};

/// `quoridor.known-command.consistent` (fail).
pub static KNOWN_COMMAND_CONSISTENT: RuleInfo = RuleInfo {
    id: "quoridor.known-command.consistent",
    severity: Severity::Fail,
    spec: r#"A command that `known_command` declares known never answers `? unknown command` ("do not declare a command as known if it is known not to work")."#,
};

/// `quoridor.list-commands.content` (fail).
pub static LIST_COMMANDS_CONTENT: RuleInfo = RuleInfo {
    id: "quoridor.list-commands.content",
    severity: Severity::Fail,
    spec: r#"`list_commands` lists every QTP command, one per line, each answered `true` by `known_command`."#,
};

/// `quoridor.boardsize.accepts` (fail).
pub static BOARDSIZE_ACCEPTS: RuleInfo = RuleInfo {
    id: "quoridor.boardsize.accepts",
    severity: Severity::Fail,
    spec: r#"`boardsize N` succeeds for every odd N from 3 to 25."#,
};

/// `quoridor.boardsize.off-spec` (fail).
pub static BOARDSIZE_OFF_SPEC: RuleInfo = RuleInfo {
    id: "quoridor.boardsize.off-spec",
    severity: Severity::Fail,
    spec: r#"For an even or out-of-range size the answer is a well-framed `=` or `? unacceptable size` (the text is checked by `quoridor.error.text`)."#,
};

/// `quoridor.setup.ack` (fail).
pub static SETUP_ACK: RuleInfo = RuleInfo {
    id: "quoridor.setup.ack",
    severity: Severity::Fail,
    spec: r#"`clear_board` and `walls W` (W ≥ 0) succeed with `=`."#,
};

/// `quoridor.setup.reset` (fail).
pub static SETUP_RESET: RuleInfo = RuleInfo {
    id: "quoridor.setup.reset",
    severity: Severity::Fail,
    spec: r#"After `boardsize`/`clear_board`/`walls` the position is the start position: pawns on their start squares, no walls, W walls each, empty history (`undo` → `? cannot undo`), `winner` → `= false`."#,
};

/// `quoridor.playmove.accepts-legal` (fail).
pub static PLAYMOVE_ACCEPTS_LEGAL: RuleInfo = RuleInfo {
    id: "quoridor.playmove.accepts-legal",
    severity: Severity::Fail,
    spec: r#"Every legal pawn move (§3.4) for either colour, in any order of colours, is accepted with `=`."#,
};

/// `quoridor.playmove.rejects-illegal` (fail).
pub static PLAYMOVE_REJECTS_ILLEGAL: RuleInfo = RuleInfo {
    id: "quoridor.playmove.rejects-illegal",
    severity: Severity::Fail,
    spec: r#"Every illegal pawn destination is refused with `?`. The report names the reason: off board, occupied, not reachable, blocked by a wall, jump blocked, side-step without a blocked jump, side-step through a wall."#,
};

/// `quoridor.playwall.accepts-legal` (fail).
pub static PLAYWALL_ACCEPTS_LEGAL: RuleInfo = RuleInfo {
    id: "quoridor.playwall.accepts-legal",
    severity: Severity::Fail,
    spec: r#"Every legal wall (§3.3) for a colour with walls left is accepted with `=`."#,
};

/// `quoridor.playwall.anchor` (fail).
pub static PLAYWALL_ANCHOR: RuleInfo = RuleInfo {
    id: "quoridor.playwall.anchor",
    severity: Severity::Fail,
    spec: r#"A wall anchored in row 1, in the last column or off the board is refused with `?`."#,
};

/// `quoridor.playwall.overlap` (fail).
pub static PLAYWALL_OVERLAP: RuleInfo = RuleInfo {
    id: "quoridor.playwall.overlap",
    severity: Severity::Fail,
    spec: r#"A wall that duplicates, overlaps or crosses an existing wall is refused with `?`."#,
};

/// `quoridor.playwall.path` (fail).
pub static PLAYWALL_PATH: RuleInfo = RuleInfo {
    id: "quoridor.playwall.path",
    severity: Severity::Fail,
    spec: r#"A wall that leaves either pawn without a path to its goal row (pawns ignored) is refused with `?`."#,
};

/// `quoridor.playwall.supply` (fail).
pub static PLAYWALL_SUPPLY: RuleInfo = RuleInfo {
    id: "quoridor.playwall.supply",
    severity: Severity::Fail,
    spec: r#"A wall for a colour with no walls left is refused with `?`."#,
};

/// `quoridor.state.failed-unchanged` (fail).
pub static STATE_FAILED_UNCHANGED: RuleInfo = RuleInfo {
    id: "quoridor.state.failed-unchanged",
    severity: Severity::Fail,
    spec: r#"A refused command changes nothing: the same probe answers the same afterwards, and wall counts are unchanged."#,
};

/// `quoridor.genmove.syntax` (fail).
pub static GENMOVE_SYNTAX: RuleInfo = RuleInfo {
    id: "quoridor.genmove.syntax",
    severity: Severity::Fail,
    spec: r#"`genmove` answers `= <vertex>` or `= <vertex> <orientation>`, with the vertex on the board."#,
};

/// `quoridor.genmove.extra-tokens` (warn).
pub static GENMOVE_EXTRA_TOKENS: RuleInfo = RuleInfo {
    id: "quoridor.genmove.extra-tokens",
    severity: Severity::Warn,
    spec: r#"The `genmove` answer has no tokens beyond vertex and orientation, and no leading zeros in the row."#,
};

/// `quoridor.genmove.illegal` (fail).
pub static GENMOVE_ILLEGAL: RuleInfo = RuleInfo {
    id: "quoridor.genmove.illegal",
    severity: Severity::Fail,
    spec: r#"The generated move is legal for that colour in the current position (pawn rules, wall geometry, path rule, wall supply)."#,
};

/// `quoridor.genmove.applied` (fail).
pub static GENMOVE_APPLIED: RuleInfo = RuleInfo {
    id: "quoridor.genmove.applied",
    severity: Severity::Fail,
    spec: r#"The engine has played its generated move: a follow-up probe (the same pawn move again, or the same wall slot) is refused."#,
};

/// `quoridor.genmove.any-colour` (fail).
pub static GENMOVE_ANY_COLOUR: RuleInfo = RuleInfo {
    id: "quoridor.genmove.any-colour",
    severity: Severity::Fail,
    spec: r#"`genmove` works for either colour at any time, including twice in a row for the same colour."#,
};

/// `quoridor.undo.restores` (fail).
pub static UNDO_RESTORES: RuleInfo = RuleInfo {
    id: "quoridor.undo.restores",
    severity: Severity::Fail,
    spec: r#"`undo [k]` takes back exactly k history entries of either colour, `genmove` results included, restoring pawns, walls, wall counts and the winner state."#,
};

/// `quoridor.undo.cannot` (fail).
pub static UNDO_CANNOT: RuleInfo = RuleInfo {
    id: "quoridor.undo.cannot",
    severity: Severity::Fail,
    spec: r#"`undo k` with k greater than the number of moves played, or with no moves played, fails with `?` and changes nothing."#,
};

/// `quoridor.winner.answer` (fail).
pub static WINNER_ANSWER: RuleInfo = RuleInfo {
    id: "quoridor.winner.answer",
    severity: Severity::Fail,
    spec: r#"`winner` answers exactly `= false` before a pawn reaches its goal row and `= true white` or `= true black` after (any case; short forms fail)."#,
};

/// `quoridor.winner.reset` (fail).
pub static WINNER_RESET: RuleInfo = RuleInfo {
    id: "quoridor.winner.reset",
    severity: Severity::Fail,
    spec: r#"`winner` is `= false` again after the winning move is undone, and after `clear_board` or `boardsize`."#,
};

/// `quoridor.showboard.framing` (fail).
pub static SHOWBOARD_FRAMING: RuleInfo = RuleInfo {
    id: "quoridor.showboard.framing",
    severity: Severity::Fail,
    spec: r#"`showboard` succeeds with one well-framed response (its content is not parsed)."#,
};

/// `quoridor.quit.response` (fail).
pub static QUIT_RESPONSE: RuleInfo = RuleInfo {
    id: "quoridor.quit.response",
    severity: Severity::Fail,
    spec: r#"`quit` is answered with `=` and the terminating empty line before the engine exits."#,
};

/// `io.no-exit` (fail).
pub static IO_NO_EXIT: RuleInfo = shared_rules::IO_NO_EXIT.worded_as(
    Severity::Fail,
    r#"The engine exits within the grace period (default 2 s) after answering `quit`."#,
);

/// `quoridor.quit.exit-status` (warn).
pub static QUIT_EXIT_STATUS: RuleInfo = RuleInfo {
    id: "quoridor.quit.exit-status",
    severity: Severity::Warn,
    spec: r#"The engine exits with status 0 after `quit`."#,
};

/// `quoridor.process.eof` (warn).
pub static PROCESS_EOF: RuleInfo = RuleInfo {
    id: "quoridor.process.eof",
    severity: Severity::Warn,
    spec: r#"The engine exits when stdin reaches EOF without `quit` (no busy loop, no crash)."#,
};

/// `quoridor.process.seed-arg` (fail).
pub static PROCESS_SEED_ARG: RuleInfo = RuleInfo {
    id: "quoridor.process.seed-arg",
    severity: Severity::Fail,
    spec: r#"The engine started with the extra arguments `-seed <n>` behaves normally."#,
};

/// `quoridor.process.memory` (fail).
pub static PROCESS_MEMORY: RuleInfo = RuleInfo {
    id: "quoridor.process.memory",
    severity: Severity::Fail,
    spec: r#"The engine process's virtual memory size stays at or below 950 MB (checked on Linux after each of its moves and acknowledgements)."#,
};

/// `quoridor.process.stderr-response-like` (warn).
pub static PROCESS_STDERR_RESPONSE_LIKE: RuleInfo = RuleInfo {
    id: "quoridor.process.stderr-response-like",
    severity: Severity::Warn,
    spec: r#"No stderr line starts with `=` or `?` (the referee reads stderr and stdout as one stream)."#,
};

/// The quoridor rows, in the order of the table in quoridor.md §8 (the shared `io.*`
/// ids as quoridor words them); `shared_rules::Catalogue` adds the rest.
pub static CATALOGUE: Catalogue = Catalogue::new(&[
    &FRAMING_STATUS,
    &FRAMING_EXTRA_RESPONSE,
    &FRAMING_SPLIT_RESPONSE,
    &FRAMING_NO_TERMINATOR,
    &FRAMING_SPACE_AFTER_STATUS,
    &FRAMING_WHITESPACE_LINE,
    &FRAMING_OUTPUT_CHARS,
    &IO_UNEXPECTED_OUTPUT,
    &IO_TIMEOUT,
    &TIME_ACK,
    &TIME_GAME,
    &IO_CRASH,
    &IO_LINE_TOO_LONG,
    &IO_INVALID_UTF8,
    &INPUT_CRLF,
    &INPUT_WHITESPACE,
    &INPUT_LEADING_WHITESPACE,
    &INPUT_EMPTY_LINE,
    &INPUT_COMMENT,
    &INPUT_GLUED_COMMENT,
    &INPUT_WHITESPACE_ONLY_LINE,
    &INPUT_PIPELINED,
    &INPUT_ARGUMENT_CASE,
    &COMMAND_UNKNOWN,
    &COMMAND_NAME_CASE,
    &ERROR_TEXT,
    &SYNTAX_MALFORMED,
    &SYNTAX_BAD_ORIENTATION,
    &NAME_RESPONSE,
    &KNOWN_COMMAND_ANSWER,
    &KNOWN_COMMAND_CONSISTENT,
    &LIST_COMMANDS_CONTENT,
    &BOARDSIZE_ACCEPTS,
    &BOARDSIZE_OFF_SPEC,
    &SETUP_ACK,
    &SETUP_RESET,
    &PLAYMOVE_ACCEPTS_LEGAL,
    &PLAYMOVE_REJECTS_ILLEGAL,
    &PLAYWALL_ACCEPTS_LEGAL,
    &PLAYWALL_ANCHOR,
    &PLAYWALL_OVERLAP,
    &PLAYWALL_PATH,
    &PLAYWALL_SUPPLY,
    &STATE_FAILED_UNCHANGED,
    &GENMOVE_SYNTAX,
    &GENMOVE_EXTRA_TOKENS,
    &GENMOVE_ILLEGAL,
    &GENMOVE_APPLIED,
    &GENMOVE_ANY_COLOUR,
    &UNDO_RESTORES,
    &UNDO_CANNOT,
    &WINNER_ANSWER,
    &WINNER_RESET,
    &SHOWBOARD_FRAMING,
    &QUIT_RESPONSE,
    &IO_NO_EXIT,
    &QUIT_EXIT_STATUS,
    &PROCESS_EOF,
    &PROCESS_SEED_ARG,
    &PROCESS_MEMORY,
    &PROCESS_STDERR_RESPONSE_LIKE,
]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catalogue_check;

    #[test]
    fn ids_are_unique_lowercase_and_dotted() {
        catalogue_check::ids_are_well_formed(CATALOGUE.all(), "quoridor");
        assert_eq!(
            CATALOGUE.by_id("quoridor.playwall.path"),
            Some(&PLAYWALL_PATH)
        );
        assert_eq!(CATALOGUE.by_id("quoridor.nope"), None);
        assert_eq!(FRAMING_NO_TERMINATOR.severity, Severity::Warn);
        assert_eq!(GENMOVE_ILLEGAL.severity, Severity::Fail);
    }

    #[test]
    fn every_section_8_row_is_in_all() {
        catalogue_check::matches_rules_doc(
            CATALOGUE.own(),
            "quoridor.md",
            "## 8. Catalogue of checks",
            50,
        );
    }
}
