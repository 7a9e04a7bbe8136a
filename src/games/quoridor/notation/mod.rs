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

mod response;

pub use response::*;

use super::rules::{Action, Cell, Colour, Orientation, Wall};
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

#[cfg(test)]
mod tests;
