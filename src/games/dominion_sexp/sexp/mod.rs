//! A streaming S-expression reader that frames bot replies the way the
//! reference server's Lisp reader does (`rules/dominion-sexp.md` §1.2): one
//! datum from a byte stream, ended by the `)` that closes its first `(`, no
//! newline needed.
//!
//! Bytes arrive in arbitrary chunks; [`Reader::feed`] examines each byte once
//! and keeps all state between calls, so a reply split into 1-byte writes
//! frames exactly like the same bytes in one write, and the work is linear in
//! the input. Everything the reference's reader accepts beyond the document's
//! grammar (brackets, braces, comments, dotted pairs, `|…|` and `\` in
//! symbols, Unicode spaces, `#ci`/`#cs`, graph labels, `#!` comments) is read
//! and flagged in [`Reply::nonstandard`].

mod reader;

pub use reader::Reader;
use std::fmt;

/// One reply may be at most this long, from its first non-whitespace byte to
/// its closing parenthesis (`io.line-too-long`).
pub const MAX_REPLY_BYTES: usize = 64 * 1024;
/// Lists nested deeper than this are not parsed (`grammar.not-a-play`).
pub const MAX_DEPTH: usize = 32;

/// A datum as the reader built it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Datum {
    Symbol(String),
    /// A string literal's content, escapes resolved.
    Str(String),
    /// A token that reads as a number, kept as written.
    Number(String),
    List(Vec<Datum>),
    /// `(a b . c)` with a tail that is not a list.
    Improper(Vec<Datum>, Box<Datum>),
}

impl Datum {
    pub fn symbol(&self) -> Option<&str> {
        match self {
            Datum::Symbol(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Datum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn items(f: &mut fmt::Formatter<'_>, items: &[Datum]) -> fmt::Result {
            for (i, d) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{d}")?;
            }
            Ok(())
        }
        match self {
            Datum::Symbol(s) | Datum::Number(s) => f.write_str(s),
            Datum::Str(s) => write!(f, "{s:?}"),
            Datum::List(v) => {
                f.write_str("(")?;
                items(f, v)?;
                f.write_str(")")
            }
            Datum::Improper(v, tail) => {
                f.write_str("(")?;
                items(f, v)?;
                write!(f, " . {tail})")
            }
        }
    }
}

/// The first construct of a reply that the document's grammar does not allow
/// but the reference's reader accepts (`frame.nonstandard-syntax`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nonstandard {
    Brackets,
    Braces,
    LineComment,
    BlockComment,
    DatumComment,
    Dotted,
    BarOrEscape,
    UnicodeSpace,
    CaseMode,
    GraphLabel,
    HashBangComment,
}

impl Nonstandard {
    pub fn describe(self) -> &'static str {
        match self {
            Nonstandard::Brackets => "square brackets used as parentheses",
            Nonstandard::Braces => "curly braces used as parentheses",
            Nonstandard::LineComment => "a `;` comment",
            Nonstandard::BlockComment => "a `#| … |#` comment",
            Nonstandard::DatumComment => "a `#;` datum comment",
            Nonstandard::Dotted => "dotted-pair notation",
            Nonstandard::BarOrEscape => "`|…|` quoting or a `\\` escape in a symbol",
            Nonstandard::UnicodeSpace => "non-ASCII whitespace",
            Nonstandard::CaseMode => "a `#ci`/`#cs` case-mode prefix",
            Nonstandard::GraphLabel => "a `#N=` graph label",
            Nonstandard::HashBangComment => "a `#!` line comment",
        }
    }
}

/// A complete datum read from the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub datum: Datum,
    pub nonstandard: Option<Nonstandard>,
    /// Bytes from the reply's first non-whitespace byte to its end.
    pub len: usize,
}

/// Why the stream could not be read as a datum. After one, the reader
/// reports the same error again: a failure ends the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameError {
    /// `frame.syntax`: stray or mismatched bracket, unsupported `#` form,
    /// misplaced dot, unterminated string or comment at end of input.
    Syntax(String),
    /// `io.line-too-long`.
    TooLong,
    /// Nested deeper than [`MAX_DEPTH`] (`grammar.not-a-play`).
    TooDeep,
    /// `io.invalid-utf8`.
    InvalidUtf8,
}

impl FrameError {
    pub fn rule(&self) -> &'static crate::verdict::RuleInfo {
        use super::catalogue as c;
        match self {
            FrameError::Syntax(_) => &c::FRAME_SYNTAX,
            FrameError::TooLong => &c::IO_LINE_TOO_LONG,
            FrameError::TooDeep => &c::GRAMMAR_NOT_A_PLAY,
            FrameError::InvalidUtf8 => &c::IO_INVALID_UTF8,
        }
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Syntax(s) => f.write_str(s),
            FrameError::TooLong => write!(f, "the reply exceeds {MAX_REPLY_BYTES} bytes"),
            FrameError::TooDeep => write!(f, "the reply nests lists deeper than {MAX_DEPTH}"),
            FrameError::InvalidUtf8 => f.write_str("the output is not valid UTF-8"),
        }
    }
}

fn is_ascii_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

/// Racket's `char-whitespace?` beyond ASCII.
fn is_unicode_space(c: char) -> bool {
    !c.is_ascii() && c.is_whitespace()
}

fn is_delimiter(c: char) -> bool {
    is_ascii_space(c)
        || is_unicode_space(c)
        || matches!(
            c,
            '(' | ')' | '[' | ']' | '{' | '}' | '"' | ',' | '\'' | '`' | ';'
        )
}

/// Racket reads a token as a number when it looks like one; the forms that
/// matter here: optional sign, digits, optional fraction or ratio.
fn looks_numeric(t: &str) -> bool {
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (int, rest) = body.split_at(body.find(['.', '/']).unwrap_or(body.len()));
    let frac = rest.get(1..).unwrap_or("");
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) {
        return false;
    }
    match rest.chars().next() {
        None => !int.is_empty(),
        Some('.') => !int.is_empty() || !frac.is_empty(),
        _ => !int.is_empty() && !frac.is_empty(),
    }
}

/// Reads exactly one datum from a complete text (a notification, a recorded
/// reply): trailing bytes other than whitespace are an error.
pub fn read_one(text: &str) -> Result<Reply, FrameError> {
    let mut reader = Reader::new();
    let (used, outcome) = reader.feed(text.as_bytes());
    let reply = match outcome.or_else(|| reader.finish()) {
        Some(r) => r?,
        None => return Err(FrameError::Syntax("no datum in the input".into())),
    };
    let rest = &text[used..];
    let (_, more) = reader.feed(rest.as_bytes());
    if more.or_else(|| reader.finish()).is_some() {
        return Err(FrameError::Syntax(format!(
            "trailing text after the datum: {:?}",
            rest.trim()
        )));
    }
    Ok(reply)
}

#[cfg(test)]
mod tests;
