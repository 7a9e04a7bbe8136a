//! The response side of QTP: framing one response (§1.4), the parsed
//! `Response` and its findings, and the parsers for specific answers.

use super::{
    MAX_LINE_BYTES, MAX_RESPONSE_LINES, STANDARD_ERRORS, has_leading_zero, parse_boolean,
    parse_orientation, parse_vertex,
};
use crate::games::quoridor::catalogue;
use crate::games::quoridor::rules::{Action, Colour, Wall};
use crate::verdict::{RuleInfo, Violation};
use std::fmt;

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
/// `Err` when there is no usable response: no line starts with `=` or `?`
/// (`quoridor.framing.status`). Otherwise the findings may contain:
///
/// * `io.invalid-utf8` (fail): the bytes are decoded lossily;
/// * `quoridor.framing.output-chars` (warn): HT or other control characters;
/// * `io.unexpected-output` (warn): `#` lines and stray lines (debug
///   prints) before the status line, which the referee reads past;
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

    // Before the status line: blank lines are ignored; `#` lines and other
    // stray lines are warned, since the referee reads past every line that
    // does not start with `=` (§6, decision 10).
    let mut i = 0;
    let mut first_stray: Option<&str> = None;
    while i < lines.len() {
        match classify_output_line(lines[i]) {
            OutputLine::Empty | OutputLine::WhitespaceOnly => {}
            OutputLine::Comment => findings.push(Finding::new(
                &catalogue::IO_UNEXPECTED_OUTPUT,
                format!("comment line before the response: {:?}", lines[i]),
            )),
            OutputLine::Text => {
                first_stray = first_stray.or(Some(lines[i]));
                findings.push(Finding::new(
                    &catalogue::IO_UNEXPECTED_OUTPUT,
                    format!(
                        "stray line before the response (the referee reads past it): {:?}",
                        lines[i]
                    ),
                ));
            }
            OutputLine::Status => break,
        }
        i += 1;
    }
    let Some(status_line) = lines.get(i) else {
        // No status line came: the text is a response without its status.
        return Err(Finding::new(
            &catalogue::FRAMING_STATUS,
            match first_stray {
                Some(l) => format!("the response starts with neither '=' nor '?': {l:?}"),
                None => "no response: the output holds no line starting with '=' or '?'".into(),
            },
        ));
    };
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

/// One response as the controller reads it, for scripted `expect: {reply}`
/// and `{matches}`: from the status line to the last line before the
/// terminating empty line, joined by LF, with what the controller tolerates
/// taken out (blank, `#` and stray lines before the status line, CR and
/// other control characters, HT as SPACE, trailing spaces). The status line
/// is kept as written (`=E2` stays `=E2`; its own warning reports it).
/// `None` when no line starts with `=` or `?`.
pub fn response_as_read(raw: &[u8]) -> Option<String> {
    let (text, _) = clean_output(&String::from_utf8_lossy(raw));
    let mut lines = text
        .split('\n')
        .skip_while(|l| classify_output_line(l) != OutputLine::Status)
        .peekable();
    lines.peek()?;
    let read: Vec<&str> = lines
        .take_while(|l| {
            !matches!(
                classify_output_line(l),
                OutputLine::Empty | OutputLine::WhitespaceOnly
            )
        })
        .map(|l| l.trim_end_matches(' '))
        .collect();
    Some(read.join("\n"))
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
pub fn parse_winner(payload: &str) -> Result<Option<Colour>, WinnerError> {
    match payload.trim().to_ascii_lowercase().as_str() {
        "false" => Ok(None),
        "true white" => Ok(Some(Colour::White)),
        "true black" => Ok(Some(Colour::Black)),
        other => Err(WinnerError {
            answer: other.to_string(),
        }),
    }
}

/// A `winner` payload the referee does not take: `answer` as compared
/// (trimmed, lower case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{answer:?} is none of \"false\", \"true white\", \"true black\" (the referee compares exactly these strings)"
)]
pub struct WinnerError {
    pub answer: String,
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
