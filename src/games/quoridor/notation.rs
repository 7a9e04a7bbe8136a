//! QTP notation: entities, commands and the response grammar
//! (`shared/rules/quoridor.md` §1–§2, decisions in §7).
//!
//! * Entities on input are case-insensitive: vertices (`e2` = `E2`), colours
//!   (`b`, `black`, `W`, `WHITE`) and orientations (`h`, `Vertical`).
//! * protocheck sends the canonical form (§1.2): lower-case command names,
//!   `black`/`white`, upper-case vertex letters, full-word orientations, one
//!   SPACE between tokens, no trailing LF in [`Command`]'s `Display`.
//! * [`parse_response`] classifies the raw bytes of one response and reports
//!   every framing rule of the §8 catalogue it breaks.

use super::catalogue;
use super::rules::{Action, Cell, Colour, Orientation, Wall};
use crate::verdict::{RuleInfo, Violation};
use std::fmt;

/// The 13 QTP commands (§2.3), in the order of the document.
pub const QTP_COMMANDS: [&str; 13] = [
    "name",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "walls",
    "playmove",
    "playwall",
    "genmove",
    "undo",
    "winner",
    "showboard",
];

/// The standard error messages the document fixes (§2.2).
pub const ERR_UNKNOWN_COMMAND: &str = "unknown command";
pub const ERR_ILLEGAL_MOVE: &str = "illegal move";
pub const ERR_UNACCEPTABLE_SIZE: &str = "unacceptable size";
pub const ERR_CANNOT_UNDO: &str = "cannot undo";
pub const STANDARD_ERRORS: [&str; 4] = [
    ERR_UNKNOWN_COMMAND,
    ERR_ILLEGAL_MOVE,
    ERR_UNACCEPTABLE_SIZE,
    ERR_CANNOT_UNDO,
];

/// Longest output line protocheck reads (§1.4).
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Most lines protocheck reads for one response (§1.4).
pub const MAX_RESPONSE_LINES: usize = 4096;

// ---------------------------------------------------------------- entities

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Canonical vertex: upper-case letter, row without leading zeros (`E2`).
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match column_letter(self.col) {
            Some(l) => write!(f, "{l}{}", u16::from(self.row) + 1),
            None => write!(f, "?{}:{}", self.col, u16::from(self.row) + 1),
        }
    }
}

/// `horizontal` or `vertical`, the canonical form protocheck sends.
impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(orientation_word(*self))
    }
}

/// The short form of the oracle files and reports: `E2 h`.
impl fmt::Display for Wall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.anchor, orientation_letter(self.orientation))
    }
}

/// As in a `genmove` answer: `E2` or `E2 h`.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Step(c) => write!(f, "{c}"),
            Action::Place(w) => write!(f, "{w}"),
        }
    }
}

/// The upper-case column letter, `A` for 0 … `Z` for 25.
pub fn column_letter(col: u8) -> Option<char> {
    (col < 26).then(|| char::from(b'A' + col))
}

pub fn orientation_word(o: Orientation) -> &'static str {
    match o {
        Orientation::Horizontal => "horizontal",
        Orientation::Vertical => "vertical",
    }
}

pub fn orientation_letter(o: Orientation) -> char {
    match o {
        Orientation::Horizontal => 'h',
        Orientation::Vertical => 'v',
    }
}

/// `white`, `w`, `black` or `b`, in any case.
pub fn parse_colour(s: &str) -> Option<Colour> {
    match s.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Colour::White),
        "black" | "b" => Some(Colour::Black),
        _ => None,
    }
}

/// `horizontal`, `h`, `vertical` or `v`, in any case.
pub fn parse_orientation(s: &str) -> Option<Orientation> {
    match s.to_ascii_lowercase().as_str() {
        "horizontal" | "h" => Some(Orientation::Horizontal),
        "vertical" | "v" => Some(Orientation::Vertical),
        _ => None,
    }
}

/// `true`, `t`, `false` or `f`, in any case.
pub fn parse_boolean(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "t" => Some(true),
        "false" | "f" => Some(false),
        _ => None,
    }
}

/// A vertex: one letter (any case) and a decimal row from 1. The cell is not
/// checked against a board size (`Z9` and `E10` parse; the board refuses
/// them), but the row must fit (1..=256). Leading zeros are accepted; see
/// [`has_leading_zero`].
pub fn parse_vertex(s: &str) -> Option<Cell> {
    let mut chars = s.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_alphabetic() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: u32 = digits.parse().ok()?;
    if row == 0 || row > 256 {
        return None;
    }
    let col = letter.to_ascii_lowercase() as u8 - b'a';
    Some(Cell::new(col, (row - 1) as u8))
}

/// Whether a vertex token's row has a leading zero (`E05`).
pub fn has_leading_zero(vertex: &str) -> bool {
    let digits = vertex.get(1..).unwrap_or("");
    digits.len() > 1 && digits.starts_with('0')
}

/// `<vertex> <orientation>`, as in the oracle files (`E2 h`) or a `genmove`
/// answer; any whitespace between the two tokens.
pub fn parse_wall(s: &str) -> Option<Wall> {
    let mut t = s.split_ascii_whitespace();
    let anchor = parse_vertex(t.next()?)?;
    let o = parse_orientation(t.next()?)?;
    t.next().is_none().then_some(Wall::new(anchor, o))
}

// ---------------------------------------------------------------- commands

/// A QTP command. `Display` gives the canonical form protocheck sends
/// (§1.2), without the terminating LF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Name,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize(u32),
    ClearBoard,
    Walls(u32),
    PlayMove(Colour, Cell),
    PlayWall(Colour, Wall),
    GenMove(Colour),
    /// `undo` (`None`) or `undo <k>`.
    Undo(Option<u32>),
    Winner,
    ShowBoard,
    /// Anything else, sent verbatim: extensions such as `protocol_version`,
    /// unknown names, probes of the input handling.
    Other(String),
}

impl Command {
    /// The command name (`playwall`); the first token for [`Command::Other`].
    pub fn name(&self) -> &str {
        match self {
            Command::Name => "name",
            Command::KnownCommand(_) => "known_command",
            Command::ListCommands => "list_commands",
            Command::Quit => "quit",
            Command::BoardSize(_) => "boardsize",
            Command::ClearBoard => "clear_board",
            Command::Walls(_) => "walls",
            Command::PlayMove(..) => "playmove",
            Command::PlayWall(..) => "playwall",
            Command::GenMove(_) => "genmove",
            Command::Undo(_) => "undo",
            Command::Winner => "winner",
            Command::ShowBoard => "showboard",
            Command::Other(s) => s.split_ascii_whitespace().next().unwrap_or(""),
        }
    }

    /// Whether the success answer may span several lines (§1.4): only
    /// `list_commands` and `showboard`. Every other answer is one line, so a
    /// further `=`/`?` line starts the next response.
    pub fn multiline_answer(&self) -> bool {
        is_multiline_command(self.name())
    }

    /// Whether the command changes the position or history when it succeeds.
    pub fn changes_state(&self) -> bool {
        matches!(
            self,
            Command::BoardSize(_)
                | Command::ClearBoard
                | Command::Walls(_)
                | Command::PlayMove(..)
                | Command::PlayWall(..)
                | Command::GenMove(_)
                | Command::Undo(_)
        )
    }
}

/// See [`Command::multiline_answer`].
pub fn is_multiline_command(name: &str) -> bool {
    matches!(name, "list_commands" | "showboard")
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::KnownCommand(n) => write!(f, "known_command {n}"),
            Command::BoardSize(n) => write!(f, "boardsize {n}"),
            Command::Walls(n) => write!(f, "walls {n}"),
            Command::PlayMove(c, v) => write!(f, "playmove {c} {v}"),
            Command::PlayWall(c, w) => write!(f, "playwall {c} {} {}", w.anchor, w.orientation),
            Command::GenMove(c) => write!(f, "genmove {c}"),
            Command::Undo(Some(k)) => write!(f, "undo {k}"),
            Command::Other(s) => f.write_str(s),
            other => f.write_str(other.name()),
        }
    }
}

/// The canonical command line, terminated by a single LF (§1.2).
pub fn format_command(c: &Command) -> String {
    format!("{c}\n")
}

/// The command that plays an action: `playmove black E8` or
/// `playwall white D2 horizontal`.
pub fn action_command(c: Colour, a: Action) -> Command {
    match a {
        Action::Step(v) => Command::PlayMove(c, v),
        Action::Place(w) => Command::PlayWall(c, w),
    }
}

/// Why a command line does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Empty after preprocessing: the engine must not answer it.
    Empty,
    /// A QTP command with missing or malformed arguments (any `?` answer).
    Malformed { name: &'static str, reason: String },
    /// A well-formed QTP command followed by surplus arguments. The document
    /// does not say what an engine does with them; the reference engine
    /// ignores them (`playmove white E2 h` is `=`).
    ExtraArguments { command: Command, extra: Vec<String> },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => f.write_str("empty line"),
            CommandError::Malformed { name, reason } => write!(f, "{name}: {reason}"),
            CommandError::ExtraArguments { command, extra } => {
                write!(f, "{}: extra arguments {:?}", command.name(), extra)
            }
        }
    }
}

/// The engine's input preprocessing (§1.3) for one line: control characters
/// other than HT and LF deleted (CR included), everything from `#` removed,
/// HT turned into SPACE, surrounding whitespace trimmed. `None` for a line
/// that is then empty or whitespace-only: it gets no response.
pub fn preprocess_command(line: &str) -> Option<String> {
    let mut out = String::with_capacity(line.len());
    for ch in line.chars() {
        match ch {
            '#' => break,
            '\t' => out.push(' '),
            '\n' => {}
            c if (c as u32) < 32 || c as u32 == 127 => {}
            c => out.push(c),
        }
    }
    let t = out.trim_matches(' ');
    (!t.is_empty()).then(|| t.to_string())
}

/// Whether a conforming engine answers this command line (§1.3): not when it
/// is empty, whitespace-only or a pure comment after preprocessing.
pub fn expects_response(command_line: &str) -> bool {
    preprocess_command(command_line).is_some()
}

/// How many responses the lines of one write deserve (split on LF).
pub fn expected_responses(input: &str) -> usize {
    input.split('\n').filter(|l| expects_response(l)).count()
}

/// Parses one command line as a conforming engine would: preprocessing
/// (§1.3), a case-sensitive command name, case-insensitive arguments.
/// Unknown names give [`Command::Other`] with the preprocessed line.
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let line = preprocess_command(line).ok_or(CommandError::Empty)?;
    let mut tokens = line.split(' ').filter(|t| !t.is_empty());
    let name = tokens.next().unwrap_or("");
    let args: Vec<&str> = tokens.collect();
    let malformed = |name: &'static str, reason: &str| CommandError::Malformed {
        name,
        reason: reason.to_string(),
    };
    let int = |name: &'static str, s: Option<&&str>| -> Result<u32, CommandError> {
        let s = s.ok_or_else(|| malformed(name, "missing integer"))?;
        match s.parse::<u32>() {
            Ok(v) if v <= i32::MAX as u32 && s.bytes().all(|b| b.is_ascii_digit()) => Ok(v),
            _ => Err(malformed(name, &format!("not an int: {s:?}"))),
        }
    };
    let colour = |name: &'static str, s: Option<&&str>| -> Result<Colour, CommandError> {
        let s = s.ok_or_else(|| malformed(name, "missing colour"))?;
        parse_colour(s).ok_or_else(|| malformed(name, &format!("not a colour: {s:?}")))
    };
    let vertex = |name: &'static str, s: Option<&&str>| -> Result<Cell, CommandError> {
        let s = s.ok_or_else(|| malformed(name, "missing vertex"))?;
        parse_vertex(s).ok_or_else(|| malformed(name, &format!("not a vertex: {s:?}")))
    };
    let (command, used) = match name {
        "name" => (Command::Name, 0),
        "list_commands" => (Command::ListCommands, 0),
        "quit" => (Command::Quit, 0),
        "clear_board" => (Command::ClearBoard, 0),
        "winner" => (Command::Winner, 0),
        "showboard" => (Command::ShowBoard, 0),
        "known_command" => {
            let n = args
                .first()
                .ok_or_else(|| malformed("known_command", "missing command name"))?;
            (Command::KnownCommand(n.to_string()), 1)
        }
        "boardsize" => (Command::BoardSize(int("boardsize", args.first())?), 1),
        "walls" => (Command::Walls(int("walls", args.first())?), 1),
        "undo" => match args.first() {
            None => (Command::Undo(None), 0),
            Some(_) => (Command::Undo(Some(int("undo", args.first())?)), 1),
        },
        "genmove" => (Command::GenMove(colour("genmove", args.first())?), 1),
        "playmove" => {
            let c = colour("playmove", args.first())?;
            let v = vertex("playmove", args.get(1))?;
            (Command::PlayMove(c, v), 2)
        }
        "playwall" => {
            let c = colour("playwall", args.first())?;
            let v = vertex("playwall", args.get(1))?;
            let o = args
                .get(2)
                .ok_or_else(|| malformed("playwall", "missing orientation"))?;
            let o = parse_orientation(o)
                .ok_or_else(|| malformed("playwall", &format!("not an orientation: {o:?}")))?;
            (Command::PlayWall(c, Wall::new(v, o)), 3)
        }
        _ => return Ok(Command::Other(line.clone())),
    };
    if args.len() > used {
        return Err(CommandError::ExtraArguments {
            command,
            extra: args[used..].iter().map(|s| s.to_string()).collect(),
        });
    }
    Ok(command)
}

// ---------------------------------------------------------------- responses

/// One engine response: `= text` or `? message`. The text is the payload
/// after the status character and its separating space, with later lines
/// joined by LF and trailing spaces removed from every line. For a response
/// whose first line is a bare `=`, the payload starts with the second line
/// (`=\nname\n…` and `= name\n…` both give `name\n…`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    Success(String),
    Failure(String),
}

impl Response {
    pub fn is_success(&self) -> bool {
        matches!(self, Response::Success(_))
    }
    pub fn text(&self) -> &str {
        match self {
            Response::Success(t) | Response::Failure(t) => t,
        }
    }
    /// The payload's first line (the whole answer of a one-line command).
    pub fn first_line(&self) -> &str {
        self.text().split('\n').next().unwrap_or("")
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Success(t) if t.is_empty() => f.write_str("="),
            Response::Success(t) => write!(f, "= {t}"),
            Response::Failure(t) if t.is_empty() => f.write_str("?"),
            Response::Failure(t) => write!(f, "? {t}"),
        }
    }
}

/// One framing or grammar finding, tied to its catalogue entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static RuleInfo,
    pub message: String,
}

impl Finding {
    pub fn new(rule: &'static RuleInfo, message: impl Into<String>) -> Finding {
        Finding {
            rule,
            message: message.into(),
        }
    }
    pub fn to_violation(&self) -> Violation {
        self.rule.violation(self.message.clone())
    }
}

/// A response with the framing findings it raised (warnings and failures
/// that still leave a usable response).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedResponse {
    pub response: Response,
    pub findings: Vec<Finding>,
}

/// What one cleaned output line is, for delimiting responses (§1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputLine {
    Empty,
    /// Only spaces: closes an open response, with a warning.
    WhitespaceOnly,
    /// Starts with `#`: an engine comment (`io.unexpected-output`, warn).
    Comment,
    /// Starts with `=` or `?`: opens a response.
    Status,
    /// Anything else: response text while a response is open, else stray.
    Text,
}

/// Classifies one output line after [`clean_output`] (no LF).
pub fn classify_output_line(line: &str) -> OutputLine {
    if line.is_empty() {
        OutputLine::Empty
    } else if line.bytes().all(|b| b == b' ') {
        OutputLine::WhitespaceOnly
    } else if line.starts_with('#') {
        OutputLine::Comment
    } else if line.starts_with('=') || line.starts_with('?') {
        OutputLine::Status
    } else {
        OutputLine::Text
    }
}

/// The controller's preprocessing of engine output (§1.4, steps 1 and 3):
/// CR and control characters other than HT and LF deleted, HT turned into
/// SPACE. The flag tells whether the output used characters the document
/// does not want on output (HT, or control characters other than CR and LF:
/// `quoridor.framing.output-chars`).
pub fn clean_output(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut odd = false;
    for ch in text.chars() {
        match ch {
            '\n' => out.push('\n'),
            '\r' => {}
            '\t' => {
                odd = true;
                out.push(' ');
            }
            c if (c as u32) < 32 || c as u32 == 127 => odd = true,
            c => out.push(c),
        }
    }
    (out, odd)
}

/// Parses the raw bytes of one response: every line up to and including the
/// terminating empty line, CR bytes preserved, as protocheck delimited it
/// (§1.4).
///
/// `Err` when there is no usable response: nothing but blank or comment
/// lines, or a first line that starts with neither `=` nor `?`
/// (`quoridor.framing.status`). Otherwise the findings may contain:
///
/// * `io.invalid-utf8` (fail): the bytes are decoded lossily;
/// * `quoridor.framing.output-chars` (warn): HT or other control characters;
/// * `io.unexpected-output` (warn): `#` lines before the status line;
/// * `quoridor.framing.space-after-status` (warn): `=E2`, `=  E2`; this also
///   flags GTP-style id answers (`=1 Naive`), which §7.6 accepts;
/// * `quoridor.framing.whitespace-line` (warn): a whitespace-only terminator;
/// * `quoridor.framing.no-terminator` (warn): no terminating empty line;
/// * `quoridor.framing.split-response` (fail): text after an empty line;
/// * `quoridor.framing.extra-response` (fail): a further `=`/`?` line after
///   the terminator;
/// * `io.line-too-long` (fail): a line over [`MAX_LINE_BYTES`] or more than
///   [`MAX_RESPONSE_LINES`] lines.
///
/// Trailing spaces and CRLF line ends are accepted without comment (§2.2).
pub fn parse_response(raw: &[u8]) -> Result<ParsedResponse, Finding> {
    let mut findings = Vec::new();
    let decoded = match std::str::from_utf8(raw) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(e) => {
            findings.push(Finding::new(
                &catalogue::IO_INVALID_UTF8,
                format!("output is not valid UTF-8 (byte {})", e.valid_up_to()),
            ));
            String::from_utf8_lossy(raw)
        }
    };
    let (text, odd) = clean_output(&decoded);
    if odd {
        findings.push(Finding::new(
            &catalogue::FRAMING_OUTPUT_CHARS,
            "the response contains a tab or a control character other than CR and LF",
        ));
    }
    // Lines; a final LF ends the last line rather than starting an empty one.
    let terminated_last = text.ends_with('\n');
    let body = if terminated_last {
        &text[..text.len() - 1]
    } else {
        &text[..]
    };
    let lines: Vec<&str> = if text.is_empty() {
        Vec::new()
    } else {
        body.split('\n').collect()
    };
    if let Some(l) = lines.iter().find(|l| l.len() > MAX_LINE_BYTES) {
        findings.push(Finding::new(
            &catalogue::IO_LINE_TOO_LONG,
            format!("an output line is {} bytes long (cap {MAX_LINE_BYTES})", l.len()),
        ));
    }
    if lines.len() > MAX_RESPONSE_LINES {
        findings.push(Finding::new(
            &catalogue::IO_LINE_TOO_LONG,
            format!(
                "the response has {} lines (cap {MAX_RESPONSE_LINES})",
                lines.len()
            ),
        ));
    }

    // Before the status line: blank lines are ignored, `#` lines warned.
    let mut i = 0;
    while i < lines.len() {
        match classify_output_line(lines[i]) {
            OutputLine::Empty | OutputLine::WhitespaceOnly => {}
            OutputLine::Comment => findings.push(Finding::new(
                &catalogue::IO_UNEXPECTED_OUTPUT,
                format!("comment line before the response: {:?}", lines[i]),
            )),
            _ => break,
        }
        i += 1;
    }
    let Some(status_line) = lines.get(i) else {
        return Err(Finding::new(
            &catalogue::FRAMING_STATUS,
            "no response: the output holds no line starting with '=' or '?'",
        ));
    };
    if classify_output_line(status_line) != OutputLine::Status {
        return Err(Finding::new(
            &catalogue::FRAMING_STATUS,
            format!("the response starts with neither '=' nor '?': {status_line:?}"),
        ));
    }
    let success = status_line.starts_with('=');
    let rest = status_line[1..].trim_end_matches(' ');
    let first = if rest.is_empty() {
        ""
    } else if let Some(t) = rest.strip_prefix(' ') {
        if t.starts_with(' ') {
            findings.push(Finding::new(
                &catalogue::FRAMING_SPACE_AFTER_STATUS,
                format!("more than one space after the status: {status_line:?}"),
            ));
        }
        t.trim_start_matches(' ')
    } else {
        findings.push(Finding::new(
            &catalogue::FRAMING_SPACE_AFTER_STATUS,
            format!("no space between the status and the text: {status_line:?}"),
        ));
        rest
    };

    // The body runs to the first empty (or whitespace-only) line.
    let mut payload: Vec<&str> = Vec::new();
    if !first.is_empty() {
        payload.push(first);
    }
    i += 1;
    let mut terminator = None;
    while i < lines.len() {
        match classify_output_line(lines[i]) {
            OutputLine::Empty => {
                terminator = Some(i);
                break;
            }
            OutputLine::WhitespaceOnly => {
                findings.push(Finding::new(
                    &catalogue::FRAMING_WHITESPACE_LINE,
                    "the response ends with a whitespace-only line instead of an empty line",
                ));
                terminator = Some(i);
                break;
            }
            _ => payload.push(lines[i].trim_end_matches(' ')),
        }
        i += 1;
    }
    if terminator.is_none() {
        findings.push(Finding::new(
            &catalogue::FRAMING_NO_TERMINATOR,
            "the response does not end with an empty line",
        ));
    }

    // Anything after the terminator other than blank lines.
    if let Some(t) = terminator {
        let mut stray = 0usize;
        for l in &lines[t + 1..] {
            match classify_output_line(l) {
                OutputLine::Empty | OutputLine::WhitespaceOnly => {}
                OutputLine::Status => findings.push(Finding::new(
                    &catalogue::FRAMING_EXTRA_RESPONSE,
                    format!("a further response line after the end of the response: {l:?}"),
                )),
                OutputLine::Comment => findings.push(Finding::new(
                    &catalogue::IO_UNEXPECTED_OUTPUT,
                    format!("comment line after the response: {l:?}"),
                )),
                OutputLine::Text => stray += 1,
            }
        }
        if stray > 0 {
            findings.push(Finding::new(
                &catalogue::FRAMING_SPLIT_RESPONSE,
                format!("{stray} line(s) of the response follow an empty line"),
            ));
        }
    }

    let payload = payload.join("\n");
    Ok(ParsedResponse {
        response: if success {
            Response::Success(payload)
        } else {
            Response::Failure(payload)
        },
        findings,
    })
}

// ---------------------------------------------------------------- answers

/// A parsed `genmove` answer with its warnings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenmoveAnswer {
    pub action: Action,
    /// `quoridor.genmove.extra-tokens` warnings: tokens beyond the vertex and
    /// orientation, further lines, leading zeros in the row.
    pub findings: Vec<Finding>,
}

/// Parses the payload of a successful `genmove` answer (§7.12): a vertex on
/// the `size`×`size` board in any case, then an optional orientation (`h`,
/// `v`, `horizontal`, `vertical`, any case). Anything unparsable, `pass` and
/// `resign` included, is `quoridor.genmove.syntax`. Legality is not judged.
pub fn parse_genmove(payload: &str, size: u8) -> Result<GenmoveAnswer, Finding> {
    let mut findings = Vec::new();
    let mut lines = payload.split('\n');
    let first = lines.next().unwrap_or("");
    let more: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
    let tokens: Vec<&str> = first.split_ascii_whitespace().collect();
    let syntax = |m: String| Finding::new(&catalogue::GENMOVE_SYNTAX, m);
    let Some(&v) = tokens.first() else {
        return Err(syntax("the genmove answer is empty".into()));
    };
    if v.eq_ignore_ascii_case("pass") || v.eq_ignore_ascii_case("resign") {
        return Err(syntax(format!(
            "{v:?} is not a QTP move (QTP has no pass or resign)"
        )));
    }
    let cell = parse_vertex(v).ok_or_else(|| syntax(format!("{v:?} is not a vertex")))?;
    if cell.col >= size || cell.row >= size {
        return Err(syntax(format!("{v} is off the {size}x{size} board")));
    }
    if has_leading_zero(v) {
        findings.push(Finding::new(
            &catalogue::GENMOVE_EXTRA_TOKENS,
            format!("leading zero in the row of {v:?} (the referee reads one or two digits)"),
        ));
    }
    let action = match tokens.get(1) {
        None => Action::Step(cell),
        Some(o) => {
            let o = parse_orientation(o)
                .ok_or_else(|| syntax(format!("{o:?} is not an orientation")))?;
            Action::Place(Wall::new(cell, o))
        }
    };
    if tokens.len() > 2 {
        findings.push(Finding::new(
            &catalogue::GENMOVE_EXTRA_TOKENS,
            format!("extra tokens after the move: {:?}", &tokens[2..]),
        ));
    }
    if !more.is_empty() {
        findings.push(Finding::new(
            &catalogue::GENMOVE_EXTRA_TOKENS,
            format!("extra lines after the move: {more:?}"),
        ));
    }
    Ok(GenmoveAnswer { action, findings })
}

/// Parses a `winner` payload the way the referee does (§6, §7.11): exactly
/// `false`, `true white` or `true black` after trimming, in any case. Short
/// forms (`t w`) are an error.
pub fn parse_winner(payload: &str) -> Result<Option<Colour>, String> {
    match payload.trim().to_ascii_lowercase().as_str() {
        "false" => Ok(None),
        "true white" => Ok(Some(Colour::White)),
        "true black" => Ok(Some(Colour::Black)),
        other => Err(format!(
            "{other:?} is none of \"false\", \"true white\", \"true black\" \
             (the referee compares exactly these strings)"
        )),
    }
}

/// The canonical `winner` payload.
pub fn format_winner(w: Option<Colour>) -> String {
    match w {
        None => "false".into(),
        Some(c) => format!("true {c}"),
    }
}

/// A `known_command` answer: `= true`/`= false` (any boolean form), or the
/// reference engine's `? false` (§7.5). `None` for anything else.
pub fn parse_known_command(r: &Response) -> Option<bool> {
    match r {
        Response::Success(t) => parse_boolean(t.trim()),
        Response::Failure(t) => (parse_boolean(t.trim()) == Some(false)).then_some(false),
    }
}

/// The command names of a `list_commands` payload, one per line.
pub fn parse_list_commands(payload: &str) -> Vec<String> {
    payload
        .split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether a failure text is one of the standard messages (§2.2).
pub fn is_standard_error(text: &str) -> bool {
    STANDARD_ERRORS.contains(&text.trim())
}
