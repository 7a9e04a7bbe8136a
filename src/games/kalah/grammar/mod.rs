//! The Kalah wire format (`shared/rules/kalah.md` §2): what protocheck sends,
//! a strict parser for scripted engine messages, and the classification of
//! every line a bot writes.
//!
//! Two different standards apply, on purpose. What protocheck *sends* must be
//! byte-exact, so the formatters produce only the canonical form and the
//! engine-message parser accepts nothing else. What a bot *sends* is judged by
//! what the reference engine would do with it (§2.1): anything the reference
//! rejects is a failure, and the forms the reference tolerates but the
//! document forbids (`MOVE;03`, `MOVE;+3`) are accepted with a warning flag.

use super::catalogue;
use super::rules::{Board, MAX_HOLES, Move, Side};
use crate::verdict::{RuleInfo, Violation};

/// The `turn` field of a CHANGE: who moves next, from the recipient's point
/// of view, or `END` (which takes precedence) if the move ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    You,
    Opp,
    End,
}

impl Turn {
    pub fn as_str(self) -> &'static str {
        match self {
            Turn::You => "YOU",
            Turn::Opp => "OPP",
            Turn::End => "END",
        }
    }
}

// ---- engine -> bot ----------------------------------------------------------

/// `START;North` / `START;South`. No LF: the transport adds it.
pub fn format_start(side: Side) -> String {
    format!("START;{}", side.as_str())
}

/// `CHANGE;<m>;<state>;<turn>`, with `m` the hole the mover emptied (numbered
/// from the mover's side) or `SWAP`, and the state in absolute wire order
/// whoever receives it. No LF.
///
/// A `CHANGE;SWAP` is only ever sent with `YOU` (§3.7); asking for anything
/// else is a bug in the caller, caught in debug builds.
pub fn format_change(m: Move, board: &Board, turn: Turn) -> String {
    let state = board.state_string();
    match m {
        Move::Hole(h) => format!("CHANGE;{h};{state};{}", turn.as_str()),
        Move::Swap => {
            debug_assert_eq!(turn, Turn::You, "CHANGE;SWAP is always sent with YOU");
            format!("CHANGE;SWAP;{state};{}", turn.as_str())
        }
    }
}

/// `END`. No LF.
pub fn format_end() -> &'static str {
    "END"
}

/// What a conforming bot writes for `mv` (`MOVE;3`, `SWAP`), without the LF;
/// for sample bots, expected values in reports and round-trip tests.
pub fn format_bot_message(mv: Move) -> String {
    match mv {
        Move::Hole(h) => format!("MOVE;{h}"),
        Move::Swap => "SWAP".to_string(),
    }
}

/// An engine message, as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    Start(Side),
    /// `counts` are in wire order, exactly `2(n+1)` of them.
    Change {
        mv: Move,
        counts: Vec<u32>,
        turn: Turn,
    },
    End,
}

impl EngineMessage {
    /// The canonical line (no LF); `parse_engine_message` accepts only lines
    /// equal to this, so it round-trips.
    pub fn to_line(&self) -> String {
        match self {
            EngineMessage::Start(side) => format_start(*side),
            EngineMessage::End => format_end().to_string(),
            EngineMessage::Change { mv, counts, turn } => {
                let state: Vec<String> = counts.iter().map(u32::to_string).collect();
                let m = match mv {
                    Move::Hole(h) => h.to_string(),
                    Move::Swap => "SWAP".to_string(),
                };
                format!("CHANGE;{m};{};{}", state.join(","), turn.as_str())
            }
        }
    }
}

/// Why a scripted engine→bot line is not a message of §2 (`Display`: the
/// scenario error as the user reads it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineMessageError {
    #[error("Kalah({holes}) is not supported (1..={MAX_HOLES} holes)")]
    Unsupported { holes: usize },
    #[error("{} at byte {at}: engine messages contain no whitespace (and the LF is added by protocheck)", char_name(*found))]
    Whitespace { found: char, at: usize },
    #[error("START takes exactly one field, `START;North` or `START;South`; found {fields}")]
    StartFields { fields: usize },
    #[error("END takes no fields: the message is exactly `END`")]
    EndFields,
    #[error("CHANGE has 4 `;`-separated parts (CHANGE;move;state;turn); found {fields}")]
    ChangeParts { fields: usize },
    #[error("move field: {0}")]
    MoveField(#[source] NumberError),
    #[error("move field: hole {hole} is outside 1..{holes} for Kalah({holes})")]
    HoleOutside { hole: u32, holes: usize },
    #[error("`{0}` is not a turn: expected YOU, OPP or END (upper case)")]
    Turn(String),
    #[error("CHANGE;SWAP is always sent with YOU (the original starter is told, and moves next), not {}", turn.as_str())]
    SwapTurn { turn: Turn },
    #[error("unknown engine message `{0}`: expected START, CHANGE or END (upper case)")]
    Unknown(String),
    #[error("`{0}` is not a side: expected `North` or `South` (case-sensitive)")]
    Side(String),
    #[error("state has {found} numbers, Kalah({holes}) needs {need} (North holes 1..{holes}, North store, South holes 1..{holes}, South store)")]
    StateLength { found: usize, holes: usize, need: usize },
    #[error("state value {index} ({pit}): {source}")]
    StateValue {
        index: usize,
        pit: String,
        #[source]
        source: NumberError,
    },
    #[error("state total does not fit in 32 bits")]
    StateTotal,
}

/// A scripted line that is no engine message is the scenario's error.
impl From<EngineMessageError> for crate::games::ScriptError {
    fn from(error: EngineMessageError) -> Self {
        crate::games::ScriptError(error.to_string())
    }
}

/// Why a field is not a `nat` (`"0" / %x31-39 *DIGIT`, within u32).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("empty number")]
    Empty,
    #[error("`{text}` is not a decimal number ({} is not an ASCII digit)", char_name(*found))]
    NotDigit { text: String, found: char },
    #[error("leading zero in `{0}`")]
    LeadingZero(String),
    #[error("`{0}` does not fit in 32 bits")]
    TooBig(String),
}

/// Parses a scripted engine→bot line for Kalah(`holes`). Only the exact
/// canonical form of §2 is accepted, because a scenario that sends anything
/// else would test the bot against a protocol the reference never speaks.
/// The error says precisely what is wrong. Whether the state is *reachable*
/// is not checked here (that needs the game so far; `lint` does it).
pub fn parse_engine_message(line: &str, holes: usize) -> Result<EngineMessage, EngineMessageError> {
    use EngineMessageError as E;
    if !(1..=MAX_HOLES).contains(&holes) {
        return Err(E::Unsupported { holes });
    }
    if let Some((i, c)) = line.char_indices().find(|(_, c)| c.is_whitespace()) {
        return Err(E::Whitespace { found: c, at: i });
    }
    let fields: Vec<&str> = line.split(';').collect();
    match fields[0] {
        "START" => match fields[1..] {
            [side] => parse_side(side).map(EngineMessage::Start),
            _ => Err(E::StartFields {
                fields: fields.len() - 1,
            }),
        },
        "END" if fields.len() == 1 => Ok(EngineMessage::End),
        "END" => Err(E::EndFields),
        "CHANGE" => {
            let [_, m, state, turn] = fields[..] else {
                return Err(E::ChangeParts {
                    fields: fields.len(),
                });
            };
            let mv = match m {
                "SWAP" => Move::Swap,
                _ => {
                    let h = parse_nat(m).map_err(E::MoveField)?;
                    if h < 1 || h as usize > holes {
                        return Err(E::HoleOutside { hole: h, holes });
                    }
                    Move::Hole(h as u8)
                }
            };
            let counts = parse_state(state, holes)?;
            let turn = match turn {
                "YOU" => Turn::You,
                "OPP" => Turn::Opp,
                "END" => Turn::End,
                other => return Err(E::Turn(other.to_string())),
            };
            if mv == Move::Swap && turn != Turn::You {
                return Err(E::SwapTurn { turn });
            }
            Ok(EngineMessage::Change { mv, counts, turn })
        }
        other => Err(E::Unknown(other.to_string())),
    }
}

fn parse_side(s: &str) -> Result<Side, EngineMessageError> {
    match s {
        "North" => Ok(Side::North),
        "South" => Ok(Side::South),
        _ => Err(EngineMessageError::Side(s.to_string())),
    }
}

fn parse_state(state: &str, holes: usize) -> Result<Vec<u32>, EngineMessageError> {
    let parts: Vec<&str> = state.split(',').collect();
    let need = 2 * (holes + 1);
    if parts.len() != need {
        return Err(EngineMessageError::StateLength {
            found: parts.len(),
            holes,
            need,
        });
    }
    let counts = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            parse_nat(p).map_err(|source| EngineMessageError::StateValue {
                index: i + 1,
                pit: pit_name(i, holes),
                source,
            })
        })
        .collect::<Result<Vec<u32>, EngineMessageError>>()?;
    if Board::from_counts(holes, &counts).is_none() {
        return Err(EngineMessageError::StateTotal);
    }
    Ok(counts)
}

/// `N3`, `North store`, … for the wire index `i`, so errors point at a pit.
fn pit_name(i: usize, n: usize) -> String {
    let (side, j) = if i <= n { ('N', i) } else { ('S', i - n - 1) };
    match (j == n, side) {
        (true, 'N') => "North store".to_string(),
        (true, _) => "South store".to_string(),
        (false, _) => format!("{side}{}", j + 1),
    }
}

/// `nat = "0" / %x31-39 *DIGIT`, within u32.
fn parse_nat(s: &str) -> Result<u32, NumberError> {
    if s.is_empty() {
        return Err(NumberError::Empty);
    }
    if let Some(c) = s.chars().find(|c| !c.is_ascii_digit()) {
        return Err(NumberError::NotDigit {
            text: s.to_string(),
            found: c,
        });
    }
    if s.len() > 1 && s.starts_with('0') {
        return Err(NumberError::LeadingZero(s.to_string()));
    }
    s.parse().map_err(|_| NumberError::TooBig(s.to_string()))
}

// ---- bot -> engine ----------------------------------------------------------

/// A line the reference would accept from a bot. Whether the move is legal in
/// the position (empty hole, swap timing) is the rule engine's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotMessage {
    /// `hole` is in 1..=n. `non_canonical` is set for `MOVE;03`, `MOVE;+3`:
    /// the reference takes them as hole 3, the document forbids them, so the
    /// caller reports [`catalogue::MOVE_NUMBER_FORMAT`] (warn).
    Move {
        hole: u8,
        non_canonical: bool,
    },
    Swap,
}

impl BotMessage {
    pub fn to_move(self) -> Move {
        match self {
            BotMessage::Move { hole, .. } => Move::Hole(hole),
            BotMessage::Swap => Move::Swap,
        }
    }
}

/// A line the reference would reject: the check it fails and what exactly is
/// wrong with it, for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub rule: &'static RuleInfo,
    pub detail: String,
}

impl Rejection {
    /// The finding, at the rule's default severity, with the detail as message.
    pub fn violation(&self) -> Violation {
        self.rule.violation(self.detail.clone())
    }
}

pub type Classified = Result<BotMessage, Rejection>;

fn reject(rule: &'static RuleInfo, detail: impl Into<String>) -> Classified {
    Err(Rejection {
        rule,
        detail: detail.into(),
    })
}

/// Classifies one bot line for Kalah(`holes`), exactly as §2.1: `line` is the
/// text before the terminating LF (a CR, if any, is still in it).
///
/// The reference only asks "does it start with `MOVE;`", "is it exactly
/// `SWAP`", and "does the rest parse as a Java `int`". Every line it rejects
/// is rejected here too; among the ids that fit, the most specific one wins,
/// because the report should name the cause the bot's author has to fix:
/// invalid UTF-8, then an empty line, then a trailing CR (a CRLF bot fails on
/// every line for that reason alone), then spaces or tabs in what is recognisably
/// a `MOVE` or `SWAP` (`MOVE 3`, `MOVE;3 `, ` MOVE;3`: one rule, §8
/// `kalah.framing.whitespace`, whichever of the reference's checks trips),
/// then the `MOVE;` argument, and finally "unknown".
///
/// # Panics
/// If `holes` is outside `1..=MAX_HOLES` (callers validate the size).
pub fn classify_bot_line(line: &[u8], holes: usize) -> Classified {
    assert!(
        (1..=MAX_HOLES).contains(&holes),
        "classify_bot_line: Kalah({holes}) is not supported"
    );
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            return reject(
                &catalogue::IO_INVALID_UTF8,
                format!(
                    "byte {at} (0x{:02X}) is not valid UTF-8; a message is plain ASCII",
                    line[at]
                ),
            );
        }
    };
    if text.is_empty() {
        return reject(
            &catalogue::FRAMING_EMPTY_LINE,
            "an empty line (a bare LF); the reference reads it as a message and rejects it",
        );
    }
    if text.ends_with('\r') {
        // Judge the rest once, to tell the author whether the CR is the only
        // problem (no recursion: `body` does not end with a CR).
        let body = text.trim_end_matches('\r');
        let without = match classify_bot_line(body.as_bytes(), holes) {
            Ok(_) => format!("without it the line would be a valid {}", quote(body)),
            Err(_) => format!("even without it, {} would not be valid", quote(body)),
        };
        return reject(
            &catalogue::FRAMING_CRLF,
            format!(
                "{} ends with CR LF; the reference keeps the CR as part of the message and rejects it ({without})",
                quote(text)
            ),
        );
    }
    if text.contains([' ', '\t']) {
        let squeezed: String = text.chars().filter(|&c| c != ' ' && c != '\t').collect();
        if squeezed == "SWAP" || squeezed.starts_with("MOVE") {
            return reject(
                &catalogue::FRAMING_WHITESPACE,
                format!(
                    "{} has a {}; the reference compares the text exactly, so a message with a space or tab anywhere is rejected ({})",
                    quote(text),
                    whitespace_position(text),
                    whitespace_hint(text, holes)
                ),
            );
        }
    }
    if let Some(arg) = text.strip_prefix("MOVE;") {
        return classify_hole(arg, holes);
    }
    if text == "SWAP" {
        return Ok(BotMessage::Swap);
    }
    reject(
        &catalogue::GRAMMAR_UNKNOWN,
        format!(
            "{} is neither `MOVE;<hole>` nor `SWAP`{}",
            quote(text),
            unknown_hint(text)
        ),
    )
}

/// The argument of `MOVE;`, judged as Java's `Integer.parseInt` would, then
/// against 1..=n.
fn classify_hole(arg: &str, holes: usize) -> Classified {
    let not_number = |why: String| {
        reject(
            &catalogue::GRAMMAR_HOLE_NOT_NUMBER,
            format!("{}: {why}", quote(&format!("MOVE;{arg}"))),
        )
    };
    let sign_len = usize::from(arg.starts_with(['+', '-']));
    let digits = &arg[sign_len..];
    if arg.is_empty() {
        return not_number("nothing after `MOVE;`; expected a hole number".to_string());
    }
    if digits.is_empty() {
        return not_number(format!("a sign `{arg}` with no digits"));
    }
    if let Some(c) = digits.chars().find(|c| !c.is_ascii_digit()) {
        let why = match c {
            c if c.is_numeric() => format!(
                "{} is not an ASCII digit (whether the reference accepts it depends on its JVM's charset)",
                char_name(c)
            ),
            c => format!("{} is not part of a decimal integer", char_name(c)),
        };
        return not_number(why);
    }
    // Leading zeros never overflow Java's parser, so accumulate rather than
    // cap the length: `MOVE;0000000000003` is hole 3 to the reference.
    let mut value: i64 = 0;
    for d in digits.bytes() {
        value = value * 10 + i64::from(d - b'0');
        if value > i64::from(i32::MAX) + 1 {
            break;
        }
    }
    if arg.starts_with('-') {
        value = -value;
    }
    let Ok(value) = i32::try_from(value) else {
        return not_number("does not fit in a 32-bit signed integer".to_string());
    };
    if value < 1 {
        let hint = if value == 0 {
            " (did the bot count holes from 0?)"
        } else {
            ""
        };
        return reject(
            &catalogue::MOVE_HOLE_RANGE,
            format!("hole {value} is not a hole: holes are numbered 1..{holes}{hint}"),
        );
    }
    if value as usize > holes {
        return reject(
            &catalogue::MOVE_HOLE_RANGE,
            format!(
                "hole {value} is outside 1..{holes} for Kalah({holes}){}",
                smaller_board_hint(value, holes)
            ),
        );
    }
    Ok(BotMessage::Move {
        hole: value as u8, // 1..=holes, and holes <= MAX_HOLES
        non_canonical: arg != value.to_string(),
    })
}

/// A short explanation of why an unrecognised line is not a message, for
/// the common mistakes of §9.2.
fn unknown_hint(text: &str) -> String {
    let upper = text.to_ascii_uppercase();
    let hint = if text.starts_with('\u{feff}') {
        "it starts with a byte order mark, U+FEFF"
    } else if upper == "SWAP" {
        "message names are case-sensitive: `SWAP`"
    } else if upper.starts_with("MOVE;") {
        "message names are case-sensitive: `MOVE;`"
    } else if upper.starts_with("MOVE") {
        "the separator after `MOVE` is `;`"
    } else if text
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'+' || b == b'-')
    {
        "a bare number; a move is written `MOVE;<hole>`"
    } else if upper.starts_with("CHANGE;") || upper.starts_with("START;") || upper == "END" {
        "that is an engine message; the bot sends only `MOVE;<hole>` or `SWAP`"
    } else {
        return String::new();
    };
    format!(" ({hint})")
}

/// What the line would be without its spaces and tabs (a space between
/// `MOVE` and the number read as the missing `;`), and whether that is valid.
fn whitespace_hint(text: &str, holes: usize) -> String {
    let is_blank = |c: char| c == ' ' || c == '\t';
    let trimmed = text.trim_matches(is_blank);
    let joined = match trimmed.strip_prefix("MOVE") {
        Some(rest)
            if rest.starts_with(is_blank)
                && !rest.trim_start_matches(is_blank).starts_with(';') =>
        {
            format!("MOVE;{rest}")
        }
        _ => trimmed.to_string(),
    };
    let repaired: String = joined.chars().filter(|&c| !is_blank(c)).collect();
    // `repaired` has no space, tab or trailing CR, so this does not recurse again.
    match classify_bot_line(repaired.as_bytes(), holes) {
        Ok(_) => format!("write {}", quote(&repaired)),
        Err(_) => format!(
            "even without spaces and tabs, {} would not be valid",
            quote(&repaired)
        ),
    }
}

/// Where the first space or tab is, in words.
fn whitespace_position(text: &str) -> String {
    let (i, c) = text
        .char_indices()
        .find(|&(_, c)| c == ' ' || c == '\t')
        .expect("caller checked for whitespace");
    let place = if i == 0 {
        "leading"
    } else if text[i..].trim_matches([' ', '\t']).is_empty() {
        "trailing"
    } else {
        "inner"
    };
    format!("{place} {}", if c == ' ' { "space" } else { "tab" })
}

/// `a space`, `a tab`, `` `x` (U+0078) `` for error messages.
fn char_name(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        '\t' => "a tab".to_string(),
        '\r' => "a CR (0x0D)".to_string(),
        '\n' => "an LF (0x0A)".to_string(),
        c if c.is_control() || !c.is_ascii() => {
            format!("`{}` (U+{:04X})", c.escape_debug(), c as u32)
        }
        c => format!("`{c}`"),
    }
}

/// The line in backticks, escaped, shortened to keep reports readable (the
/// full line goes into the violation's `actual`).
fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let escaped: String = text.chars().flat_map(char::escape_debug).collect();
    match escaped.char_indices().nth(MAX) {
        Some((cut, _)) => format!("`{}…`", &escaped[..cut]),
        None => format!("`{escaped}`"),
    }
}

#[cfg(test)]
mod tests;

/// Why a hole that exists on the real 7-hole board is out of range here: the
/// bot was never told the size (`--all-sizes`, `--holes` boards only).
fn smaller_board_hint(value: i32, holes: usize) -> String {
    let real = super::DEFAULT_HOLES as usize;
    if holes >= real || value as usize > real {
        return String::new();
    }
    format!(
        ". `START;South` and `START;North` do not tell the board size: a bot that \
         opens knows it only from its own settings (e.g. a command-line option); \
         one that first receives `CHANGE` can count its state (2·(n+1) numbers). \
         Real matches are always Kalah(7,7), so a bot that assumes 7 holes is \
         right for them; a {holes}-hole board runs only with --all-sizes, --holes, \
         or a scenario file that sets it"
    )
}
