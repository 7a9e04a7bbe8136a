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
        write!(
            f,
            "{} {}",
            self.anchor,
            orientation_letter(self.orientation)
        )
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
    ExtraArguments {
        command: Command,
        extra: Vec<String>,
    },
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
            format!(
                "an output line is {} bytes long (cap {MAX_LINE_BYTES})",
                l.len()
            ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Severity;

    fn cell(s: &str) -> Cell {
        parse_vertex(s).unwrap()
    }

    fn ids(p: &ParsedResponse) -> Vec<&'static str> {
        p.findings.iter().map(|f| f.rule.id).collect()
    }

    fn ok(raw: &str) -> ParsedResponse {
        parse_response(raw.as_bytes()).unwrap_or_else(|f| panic!("{raw:?}: {f:?}"))
    }

    #[test]
    fn vertices() {
        assert_eq!(parse_vertex("e2"), Some(Cell::new(4, 1)));
        assert_eq!(parse_vertex("E2"), Some(Cell::new(4, 1)));
        assert_eq!(parse_vertex("A1"), Some(Cell::new(0, 0)));
        assert_eq!(parse_vertex("M23"), Some(Cell::new(12, 22)));
        assert_eq!(parse_vertex("y25"), Some(Cell::new(24, 24)));
        // Syntactically vertices, off a 9×9 board: the board refuses them.
        assert_eq!(parse_vertex("Z9"), Some(Cell::new(25, 8)));
        assert_eq!(parse_vertex("E10"), Some(Cell::new(4, 9)));
        assert_eq!(parse_vertex("E05"), Some(Cell::new(4, 4)));
        assert!(has_leading_zero("E05"));
        assert!(!has_leading_zero("E10"));
        for bad in [
            "", "E", "2E", "E0", "EE2", "E2x", "E-1", "E+1", "É2", "E 2", "E257",
        ] {
            assert_eq!(parse_vertex(bad), None, "{bad:?}");
        }
        assert_eq!(cell("h3").to_string(), "H3");
        assert_eq!(Cell::new(24, 24).to_string(), "Y25");
        assert_eq!(column_letter(8), Some('I'));
        assert_eq!(column_letter(26), None);
    }

    #[test]
    fn colours_orientations_booleans() {
        for s in ["white", "w", "WHITE", "W", "White"] {
            assert_eq!(parse_colour(s), Some(Colour::White), "{s}");
        }
        for s in ["black", "b", "BLACK", "B", "bLaCk"] {
            assert_eq!(parse_colour(s), Some(Colour::Black), "{s}");
        }
        for s in ["green", "", "wh", "purple"] {
            assert_eq!(parse_colour(s), None, "{s}");
        }
        for s in ["h", "H", "horizontal", "Horizontal", "HORIZONTAL"] {
            assert_eq!(parse_orientation(s), Some(Orientation::Horizontal), "{s}");
        }
        for s in ["v", "V", "vertical", "VERTICAL", "Vertical"] {
            assert_eq!(parse_orientation(s), Some(Orientation::Vertical), "{s}");
        }
        for s in ["x", "", "hor", "vert"] {
            assert_eq!(parse_orientation(s), None, "{s}");
        }
        assert_eq!(parse_boolean("T"), Some(true));
        assert_eq!(parse_boolean("true"), Some(true));
        assert_eq!(parse_boolean("False"), Some(false));
        assert_eq!(parse_boolean("f"), Some(false));
        assert_eq!(parse_boolean("yes"), None);
        assert_eq!(Colour::White.to_string(), "white");
        assert_eq!(Orientation::Vertical.to_string(), "vertical");
    }

    #[test]
    fn walls_and_actions() {
        let w = parse_wall("d2  H").unwrap();
        assert_eq!(w, Wall::new(Cell::new(3, 1), Orientation::Horizontal));
        assert_eq!(w.to_string(), "D2 h");
        assert_eq!(parse_wall("D2"), None);
        assert_eq!(parse_wall("D2 h x"), None);
        assert_eq!(Action::Place(w).to_string(), "D2 h");
        assert_eq!(Action::Step(cell("e9")).to_string(), "E9");
    }

    #[test]
    fn canonical_commands() {
        let w = Wall::new(cell("D2"), Orientation::Horizontal);
        let cases = [
            (Command::Name, "name"),
            (
                Command::KnownCommand("genmove".into()),
                "known_command genmove",
            ),
            (Command::ListCommands, "list_commands"),
            (Command::Quit, "quit"),
            (Command::BoardSize(9), "boardsize 9"),
            (Command::ClearBoard, "clear_board"),
            (Command::Walls(10), "walls 10"),
            (
                Command::PlayMove(Colour::Black, cell("e8")),
                "playmove black E8",
            ),
            (
                Command::PlayWall(Colour::Black, w),
                "playwall black D2 horizontal",
            ),
            (
                Command::PlayWall(Colour::White, Wall::new(cell("m23"), Orientation::Vertical)),
                "playwall white M23 vertical",
            ),
            (Command::GenMove(Colour::White), "genmove white"),
            (Command::Undo(None), "undo"),
            (Command::Undo(Some(3)), "undo 3"),
            (Command::Winner, "winner"),
            (Command::ShowBoard, "showboard"),
            (
                Command::Other("protocol_version".into()),
                "protocol_version",
            ),
        ];
        for (c, s) in cases {
            assert_eq!(c.to_string(), s);
            assert_eq!(format_command(&c), format!("{s}\n"));
            assert_eq!(parse_command(s), Ok(c.clone()), "round trip {s}");
        }
        assert_eq!(
            action_command(Colour::White, Action::Place(w)).to_string(),
            "playwall white D2 horizontal"
        );
        assert!(Command::ListCommands.multiline_answer());
        assert!(Command::ShowBoard.multiline_answer());
        assert!(!Command::Name.multiline_answer());
        assert!(Command::GenMove(Colour::Black).changes_state());
        assert!(!Command::Winner.changes_state());
        assert_eq!(QTP_COMMANDS.len(), 13);
    }

    #[test]
    fn lenient_parsing_like_an_engine() {
        let e2 = Command::PlayMove(Colour::White, cell("E2"));
        assert_eq!(parse_command("playmove\twhite\tE2"), Ok(e2.clone()));
        assert_eq!(parse_command("playmove W e2\r\n"), Ok(e2.clone()));
        assert_eq!(parse_command("  playmove  white   e2 "), Ok(e2.clone()));
        assert_eq!(parse_command("playmove white e2 # comment"), Ok(e2));
        assert_eq!(
            parse_command("playwall B a5 H"),
            Ok(Command::PlayWall(
                Colour::Black,
                Wall::new(cell("A5"), Orientation::Horizontal)
            ))
        );
        assert_eq!(
            parse_command("playwall b e5 VERTICAL"),
            Ok(Command::PlayWall(
                Colour::Black,
                Wall::new(cell("E5"), Orientation::Vertical)
            ))
        );
        assert_eq!(parse_command("name # trailing comment"), Ok(Command::Name));
        assert_eq!(parse_command("na\u{1}me"), Ok(Command::Name));
        assert_eq!(parse_command("undo 0"), Ok(Command::Undo(Some(0))));
        // Names are case-sensitive; GTP ids are not QTP.
        assert_eq!(parse_command("NAME"), Ok(Command::Other("NAME".into())));
        assert_eq!(parse_command("1 name"), Ok(Command::Other("1 name".into())));
        assert_eq!(Command::Other("1 name".into()).name(), "1");
        for empty in ["", "   ", "# a comment", "\t", "\r", "  # x"] {
            assert_eq!(parse_command(empty), Err(CommandError::Empty), "{empty:?}");
        }
        for bad in [
            "playmove white",
            "playmove",
            "playmove green E2",
            "playmove white E",
            "playwall white E5",
            "playwall white E5 x",
            "genmove",
            "genmove purple",
            "boardsize abc",
            "boardsize",
            "boardsize -1",
            "boardsize 2147483648",
            "walls",
            "walls abc",
            "walls -1",
            "known_command",
            "undo abc",
            "undo -1",
        ] {
            assert!(
                matches!(parse_command(bad), Err(CommandError::Malformed { .. })),
                "{bad:?}: {:?}",
                parse_command(bad)
            );
        }
        assert_eq!(
            parse_command("playmove white E2 h"),
            Err(CommandError::ExtraArguments {
                command: Command::PlayMove(Colour::White, cell("E2")),
                extra: vec!["h".into()],
            })
        );
        assert_eq!(
            parse_command("boardsize 2147483647"),
            Ok(Command::BoardSize(i32::MAX as u32))
        );
    }

    #[test]
    fn which_lines_get_a_response() {
        for silent in ["", "   ", "\t", "# a comment", "  # x", "\r", "\u{1}"] {
            assert!(!expects_response(silent), "{silent:?}");
        }
        for answered in [
            "name",
            "name # c",
            "  name  ",
            "na\u{1}me",
            "NAME",
            "1 name",
            "x",
        ] {
            assert!(expects_response(answered), "{answered:?}");
        }
        assert_eq!(expected_responses("name\nname\nname\n"), 3);
        assert_eq!(expected_responses("\n"), 0);
        assert_eq!(expected_responses(""), 0);
        assert_eq!(expected_responses("   \n"), 0);
        assert_eq!(expected_responses("# c\nname\n\nwinner"), 2);
        assert_eq!(preprocess_command(" a\tb # c").as_deref(), Some("a b"));
    }

    #[test]
    fn well_formed_responses() {
        let p = ok("= \n\n");
        assert_eq!(p.response, Response::Success(String::new()));
        assert!(p.findings.is_empty());
        let p = ok("=\n\n");
        assert_eq!(p.response, Response::Success(String::new()));
        assert!(p.findings.is_empty());
        assert_eq!(
            ok("= Naive\n\n").response,
            Response::Success("Naive".into())
        );
        assert_eq!(
            ok("? illegal move\n\n").response,
            Response::Failure("illegal move".into())
        );
        assert_eq!(ok("?\n\n").response, Response::Failure(String::new()));
        // CRLF, trailing spaces and leading blank lines pass silently.
        let p = ok("\n= E2 \r\n\r\n");
        assert_eq!(p.response, Response::Success("E2".into()));
        assert!(p.findings.is_empty(), "{:?}", p.findings);
        // Both list_commands forms give the same payload.
        let a = ok("=\nname\nknown_command\n\n");
        let b = ok("= name\nknown_command\n\n");
        assert!(a.findings.is_empty() && b.findings.is_empty());
        assert_eq!(a.response, b.response);
        assert_eq!(a.response.text(), "name\nknown_command");
        assert_eq!(a.response.first_line(), "name");
        assert_eq!(
            parse_list_commands(a.response.text()),
            vec!["name".to_string(), "known_command".to_string()]
        );
        // Extra blank lines after the terminator are between responses.
        assert!(ok("= \n\n\n\n").findings.is_empty());
        assert_eq!(Response::Success("E2".into()).to_string(), "= E2");
        assert_eq!(Response::Failure(String::new()).to_string(), "?");
    }

    #[test]
    fn framing_findings() {
        let cases: &[(&[u8], &[&str])] = &[
            (b"=E2\n\n", &["quoridor.framing.space-after-status"]),
            (b"=  E2\n\n", &["quoridor.framing.space-after-status"]),
            (b"=1 Naive\n\n", &["quoridor.framing.space-after-status"]),
            (b"= E2\n", &["quoridor.framing.no-terminator"]),
            (b"= E2", &["quoridor.framing.no-terminator"]),
            (b"? illegal move\n", &["quoridor.framing.no-terminator"]),
            (b"= E2\n   \n", &["quoridor.framing.whitespace-line"]),
            (b"= E2\tx\n\n", &["quoridor.framing.output-chars"]),
            (b"= a\x01b\n\n", &["quoridor.framing.output-chars"]),
            (b"# thinking\n= E2\n\n", &["io.unexpected-output"]),
            (
                b"= \n\nname\nknown_command\n\n",
                &["quoridor.framing.split-response"],
            ),
            (b"= \n\n= \n\n", &["quoridor.framing.extra-response"]),
            (b"= \n\n# late\n", &["io.unexpected-output"]),
            (b"= \xff\n\n", &["io.invalid-utf8"]),
        ];
        for (raw, want) in cases {
            let p = parse_response(raw).unwrap_or_else(|f| panic!("{raw:?}: {f:?}"));
            assert_eq!(ids(&p), *want, "{:?}", String::from_utf8_lossy(raw));
        }
        assert_eq!(ok("=E2\n\n").response.text(), "E2");
        assert_eq!(ok("= E2\tx\n\n").response.text(), "E2 x");
        assert_eq!(ok("= a\x01b\n\n").response.text(), "ab");
        let long = format!("= {}\n\n", "x".repeat(MAX_LINE_BYTES + 1));
        assert_eq!(ids(&ok(&long)), ["io.line-too-long"]);
        let many = format!("=\n{}\n", "line\n".repeat(MAX_RESPONSE_LINES + 1));
        assert_eq!(ids(&ok(&many)), ["io.line-too-long"]);
        for bad in [
            "Error! out of bounds\n\n",
            "",
            "\n\n",
            "   \n",
            "# only\n\n",
            "E2\n\n",
        ] {
            let f = parse_response(bad.as_bytes()).unwrap_err();
            assert_eq!(f.rule.id, "quoridor.framing.status", "{bad:?}");
            assert_eq!(f.to_violation().severity, Severity::Fail);
        }
    }

    #[test]
    fn every_finding_rule_is_catalogued() {
        let raws: &[&[u8]] = &[
            b"=E2\n",
            b"= E2\n \n",
            b"#c\n= \xff\t\n\nx\n= \n\n",
            b"nothing",
        ];
        for raw in raws {
            let findings = match parse_response(raw) {
                Ok(p) => p.findings,
                Err(f) => vec![f],
            };
            for f in findings {
                assert!(
                    catalogue::ALL.iter().any(|r| std::ptr::eq(*r, f.rule)),
                    "{}",
                    f.rule.id
                );
            }
        }
    }

    #[test]
    fn output_lines() {
        assert_eq!(classify_output_line(""), OutputLine::Empty);
        assert_eq!(classify_output_line("   "), OutputLine::WhitespaceOnly);
        assert_eq!(classify_output_line("# x"), OutputLine::Comment);
        assert_eq!(classify_output_line("= E2"), OutputLine::Status);
        assert_eq!(classify_output_line("?"), OutputLine::Status);
        assert_eq!(classify_output_line("debug"), OutputLine::Text);
        assert_eq!(clean_output("a\r\n\tb\u{7f}"), ("a\n b".to_string(), true));
        assert_eq!(clean_output("a\r\nb"), ("a\nb".to_string(), false));
    }

    #[test]
    fn genmove_answers() {
        let g = parse_genmove("E2", 9).unwrap();
        assert_eq!(g.action, Action::Step(cell("E2")));
        assert!(g.findings.is_empty());
        assert_eq!(
            parse_genmove("e2", 9).unwrap().action,
            Action::Step(cell("E2"))
        );
        assert_eq!(
            parse_genmove("H12 h", 13).unwrap().action,
            Action::Place(Wall::new(cell("H12"), Orientation::Horizontal))
        );
        assert_eq!(
            parse_genmove("c6 VERTICAL", 9).unwrap().action,
            Action::Place(Wall::new(cell("C6"), Orientation::Vertical))
        );
        for (payload, n) in [
            ("E2 h extra", 1),
            ("E02", 1),
            ("E2\nmore", 1),
            ("E02 h x y", 2),
        ] {
            let g = parse_genmove(payload, 9).unwrap();
            assert_eq!(g.findings.len(), n, "{payload:?}");
            assert!(
                g.findings
                    .iter()
                    .all(|f| f.rule.id == "quoridor.genmove.extra-tokens")
            );
        }
        for bad in [
            "", "pass", "PASS", "resign", "J5", "E10", "E5 x", "E", "5E", "E0",
        ] {
            let f = parse_genmove(bad, 9).unwrap_err();
            assert_eq!(f.rule.id, "quoridor.genmove.syntax", "{bad:?}");
        }
        // A wall anchored on row 1 parses; legality is the rule engine's job.
        assert!(parse_genmove("E1 h", 9).is_ok());
    }

    #[test]
    fn winner_and_known_command_answers() {
        assert_eq!(parse_winner("false"), Ok(None));
        assert_eq!(parse_winner("FALSE"), Ok(None));
        assert_eq!(parse_winner("true white"), Ok(Some(Colour::White)));
        assert_eq!(parse_winner(" True Black "), Ok(Some(Colour::Black)));
        for bad in ["t w", "true", "true w", "white", "f", "true  white", ""] {
            assert!(parse_winner(bad).is_err(), "{bad:?}");
        }
        assert_eq!(format_winner(None), "false");
        assert_eq!(format_winner(Some(Colour::Black)), "true black");
        let s = |t: &str| Response::Success(t.into());
        let f = |t: &str| Response::Failure(t.into());
        assert_eq!(parse_known_command(&s("true")), Some(true));
        assert_eq!(parse_known_command(&s("t")), Some(true));
        assert_eq!(parse_known_command(&s("false")), Some(false));
        assert_eq!(parse_known_command(&f("false")), Some(false));
        assert_eq!(parse_known_command(&f("true")), None);
        assert_eq!(parse_known_command(&f("unknown command")), None);
        assert_eq!(parse_known_command(&s("yes")), None);
        assert!(is_standard_error("illegal move"));
        assert!(is_standard_error("cannot undo"));
        assert!(!is_standard_error("Illegal move"));
        assert!(!is_standard_error("invalid syntax"));
    }
}
