//! A streaming JSON value reader for protocols whose messages are bare JSON
//! values on a byte stream (Evolution: no length prefix, no line structure).
//!
//! Bytes are fed in arbitrary chunks; [`JsonStreamReader::next_frame`] takes
//! one complete value off the front and keeps the rest, like Racket's
//! `read-json`. The scanner is a validating push-down automaton whose state
//! survives between feeds, so every byte is looked at once (linear time, see
//! [`JsonStreamReader::bytes_scanned`]) and garbage is reported as soon as
//! it arrives rather than at a deadline.
//!
//! A top-level number or literal has no closing byte: `1` may continue as
//! `12`. It is complete only when the next byte arrives (which is not
//! consumed) or the stream closes; until then [`JsonStreamReader::pending`]
//! says [`Pending::UndelimitedScalar`], so the caller can report an
//! undelimited number at its deadline instead of a plain timeout.

use serde_json::Value;

/// Caps on one value (the bytes from its first to its last byte, and the
/// nesting of arrays and objects).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonLimits {
    pub max_bytes: usize,
    pub max_depth: usize,
}

impl Default for JsonLimits {
    /// Evolution's limits: 64 KiB and 128 levels (rules digest §1.5, item 9).
    fn default() -> Self {
        JsonLimits {
            max_bytes: 64 * 1024,
            max_depth: 128,
        }
    }
}

/// One complete value taken off the stream.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonFrame {
    /// The value's own bytes, without surrounding whitespace.
    pub raw: Vec<u8>,
    pub value: Value,
    /// A string in it holds a raw control character (below U+0020): JSON
    /// forbids it, the reference's reader accepts it.
    pub control_chars: bool,
    /// Offset of the value's first byte in the whole stream.
    pub offset: u64,
    /// A number in it does not fit serde_json's types: a non-negative
    /// integer above `u64::MAX` is in `value` as `u64::MAX` (still a natural
    /// number, so it fails a range check, as with the reference, which reads
    /// big integers exactly), and a fraction or exponent beyond `f64` as
    /// ±1e308 (still not an integer).
    pub saturated_numbers: bool,
}

/// What is buffered when no complete value is available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Nothing but whitespace.
    Nothing,
    /// The beginning of a value that is not complete.
    Partial,
    /// A syntactically complete top-level number or literal with nothing
    /// after it: complete once any further byte (or the close) arrives.
    UndelimitedScalar,
}

/// Where the grammar stands inside the current value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A value must start (top level, after `:` or `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ValueOrClose,
    /// After `{`: a key or `}`.
    KeyOrClose,
    /// After `,` in an object.
    Key,
    Colon,
    /// After a value inside a container.
    CommaOrClose,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Str {
    Plain,
    Escape,
    /// Inside `\uXXXX`: hex digits seen so far and their value.
    Unicode {
        seen: u8,
        code: u16,
    },
    /// A UTF-8 sequence: bytes collected and bytes it needs in all.
    Utf8 {
        have: u8,
        need: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// Between tokens.
    None,
    String {
        state: Str,
        key: bool,
    },
    Number(Num),
    /// `true`, `false` or `null`: the literal and how much of it matched.
    Literal {
        word: &'static [u8],
        matched: u8,
    },
}

/// The incremental reader. One per connection, for its whole life.
#[derive(Debug)]
pub struct JsonStreamReader {
    limits: JsonLimits,
    buf: Vec<u8>,
    /// First unread byte of `buf`; bytes before it are compacted away lazily
    /// so that taking many small values off a large buffer stays linear.
    head: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    /// Next byte of `buf` to scan.
    scan: usize,
    /// Start of the current value in `buf`, once its first byte was seen.
    value_start: Option<usize>,
    stack: Vec<u8>,
    expect: Expect,
    token: Token,
    /// A `\uD800`–`\uDBFF` escape was just read: a low surrogate must follow.
    high_surrogate: bool,
    utf8: [u8; 4],
    control_chars: bool,
    /// A top-level scalar ended its grammar; it is complete at the next byte.
    scalar_done: bool,
    closed: bool,
    error: Option<JsonStreamError>,
    scanned: u64,
}

impl Default for JsonStreamReader {
    fn default() -> Self {
        JsonStreamReader::new(JsonLimits::default())
    }
}

impl JsonStreamReader {
    pub fn new(limits: JsonLimits) -> JsonStreamReader {
        JsonStreamReader {
            limits,
            buf: Vec::new(),
            head: 0,
            base: 0,
            scan: 0,
            value_start: None,
            stack: Vec::new(),
            expect: Expect::Value,
            token: Token::None,
            high_surrogate: false,
            utf8: [0; 4],
            control_chars: false,
            scalar_done: false,
            closed: false,
            error: None,
            scanned: 0,
        }
    }

    /// Append bytes read from the stream.
    pub fn feed(&mut self, bytes: &[u8]) {
        if !self.closed && self.error.is_none() {
            self.compact();
            self.buf.extend_from_slice(bytes);
        }
    }

    /// Drop read bytes once they are at least half the buffer (amortised
    /// linear: each byte is moved at most once per halving).
    fn compact(&mut self) {
        if self.head > 0 && self.head * 2 >= self.buf.len() {
            let n = self.head;
            self.buf.drain(..n);
            self.base += n as u64;
            self.scan -= n;
            if let Some(s) = self.value_start.as_mut() {
                *s -= n;
            }
            self.head = 0;
        }
    }

    /// The stream has ended: a trailing top-level scalar becomes complete.
    pub fn close(&mut self) {
        self.closed = true;
    }

    /// How many bytes the scanner has consumed in all. Each step of the
    /// automaton either consumes a byte or hands it on once (a number's
    /// delimiter), so total work is at most twice this.
    pub fn bytes_scanned(&self) -> u64 {
        self.scanned
    }

    /// Bytes buffered but not yet taken as part of a value (leading
    /// whitespace included).
    pub fn unread(&self) -> &[u8] {
        &self.buf[self.head..]
    }

    /// Whether any non-whitespace byte is buffered.
    pub fn has_unread_content(&self) -> bool {
        self.unread().iter().any(|b| !is_json_ws(*b))
    }

    /// What is buffered, for a caller whose deadline has come.
    pub fn pending(&self) -> Pending {
        if self.value_start.is_none() {
            Pending::Nothing
        } else if self.scalar_done
            || (self.stack.is_empty() && self.top_scalar_grammatically_complete())
        {
            Pending::UndelimitedScalar
        } else {
            Pending::Partial
        }
    }

    fn top_scalar_grammatically_complete(&self) -> bool {
        match self.token {
            Token::Number(n) => n.is_final(),
            Token::Literal { word, matched } => matched as usize == word.len(),
            _ => false,
        }
    }

    /// The next complete value, `Ok(None)` if more bytes are needed.
    pub fn next_frame(&mut self) -> Result<Option<JsonFrame>, JsonStreamError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        match self.advance() {
            Ok(Some(end)) => self.take(end).map(Some),
            Ok(None) => {
                if !self.closed {
                    return Ok(None);
                }
                let error = match self.pending() {
                    Pending::UndelimitedScalar => {
                        let end = self.buf.len();
                        return self.take(end).map(Some);
                    }
                    Pending::Nothing => JsonStreamError::Closed,
                    Pending::Partial => JsonStreamError::Truncated {
                        offset: self.base + self.buf.len() as u64,
                    },
                };
                self.error = Some(error.clone());
                Err(error)
            }
            Err(e) => {
                self.error = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Cut the value ending before `end` off the buffer and parse it.
    fn take(&mut self, end: usize) -> Result<JsonFrame, JsonStreamError> {
        let start = self.value_start.take().unwrap_or(0);
        let raw: Vec<u8> = self.buf[start..end].to_vec();
        let offset = self.base + start as u64;
        let control_chars = std::mem::take(&mut self.control_chars);
        self.head = end;
        self.expect = Expect::Value;
        self.token = Token::None;
        self.scalar_done = false;
        let (rewritten, saturated_numbers) = normalise(&raw);
        let parsed = serde_json::from_slice(rewritten.as_deref().unwrap_or(&raw));
        match parsed {
            Ok(value) => Ok(JsonFrame {
                raw,
                value,
                control_chars,
                offset,
                saturated_numbers,
            }),
            // The scanner accepted it and `normalise` made every number
            // representable, so this is not expected to happen.
            Err(_) => {
                let e = JsonStreamError::Garbage {
                    offset,
                    byte: raw.first().copied().unwrap_or(0),
                };
                self.error = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Scan unscanned bytes; `Some(end)` when a value completes before `end`.
    fn advance(&mut self) -> Result<Option<usize>, JsonStreamError> {
        while self.scan < self.buf.len() {
            if self.scalar_done {
                // The byte after a top-level scalar delimits it (not consumed).
                return Ok(Some(self.scan));
            }
            let i = self.scan;
            let b = self.buf[i];
            let at = self.base + i as u64;
            if let Some(start) = self.value_start
                && i - start >= self.limits.max_bytes
            {
                return Err(JsonStreamError::TooBig {
                    offset: self.base + start as u64,
                    limit: self.limits.max_bytes,
                });
            }
            match self.step(i, b, at)? {
                Step::Consumed => {
                    self.scan += 1;
                    self.scanned += 1;
                }
                // At most once per byte: only a number or literal hands its
                // delimiter back to the enclosing grammar.
                Step::Reprocess => {}
                Step::Done => {
                    self.scan += 1;
                    self.scanned += 1;
                    return Ok(Some(self.scan));
                }
            }
        }
        Ok(None)
    }

    fn step(&mut self, i: usize, b: u8, at: u64) -> Result<Step, JsonStreamError> {
        match self.token {
            Token::String { state, key } => return self.string_byte(state, key, b, at),
            Token::Number(n) => {
                if let Some(next) = n.step(b) {
                    self.token = Token::Number(next);
                    return Ok(Step::Consumed);
                }
                if n == Num::Zero && b.is_ascii_digit() {
                    // A leading zero: invalid JSON (the reference would read `0`).
                    return Err(JsonStreamError::Garbage {
                        offset: at,
                        byte: b,
                    });
                }
                if !n.is_final() {
                    return Err(JsonStreamError::Garbage {
                        offset: at,
                        byte: b,
                    });
                }
                self.token = Token::None;
                return Ok(self.value_ended());
            }
            Token::Literal { word, matched } => {
                let m = matched as usize;
                if m < word.len() {
                    if b != word[m] {
                        return Err(JsonStreamError::Garbage {
                            offset: at,
                            byte: b,
                        });
                    }
                    self.token = Token::Literal {
                        word,
                        matched: matched + 1,
                    };
                    if m + 1 == word.len() && !self.stack.is_empty() {
                        self.token = Token::None;
                        self.expect = Expect::CommaOrClose;
                    }
                    return Ok(Step::Consumed);
                }
                // A complete top-level literal, delimited by this byte.
                self.token = Token::None;
                return Ok(self.value_ended());
            }
            Token::None => {}
        }
        if is_json_ws(b) {
            if self.value_start.is_none() {
                // Leading whitespace is not part of the value.
                self.head = i + 1;
                return Ok(Step::Consumed);
            }
            return Ok(Step::Consumed);
        }
        if self.value_start.is_none() {
            if is_other_whitespace_start(b) {
                return Err(JsonStreamError::NonJsonWhitespace { offset: at });
            }
            self.value_start = Some(i);
        }
        match self.expect {
            Expect::Value | Expect::ValueOrClose => {
                if self.expect == Expect::ValueOrClose && b == b']' {
                    return self.close_container(b'[', b, at);
                }
                self.start_value(b, at)
            }
            Expect::KeyOrClose | Expect::Key => {
                if self.expect == Expect::KeyOrClose && b == b'}' {
                    return self.close_container(b'{', b, at);
                }
                if b != b'"' {
                    return Err(JsonStreamError::Garbage {
                        offset: at,
                        byte: b,
                    });
                }
                self.token = Token::String {
                    state: Str::Plain,
                    key: true,
                };
                Ok(Step::Consumed)
            }
            Expect::Colon => {
                if b != b':' {
                    return Err(JsonStreamError::Garbage {
                        offset: at,
                        byte: b,
                    });
                }
                self.expect = Expect::Value;
                Ok(Step::Consumed)
            }
            Expect::CommaOrClose => match (b, self.stack.last()) {
                (b',', Some(b'[')) => {
                    self.expect = Expect::Value;
                    Ok(Step::Consumed)
                }
                (b',', Some(b'{')) => {
                    self.expect = Expect::Key;
                    Ok(Step::Consumed)
                }
                (b']', _) => self.close_container(b'[', b, at),
                (b'}', _) => self.close_container(b'{', b, at),
                _ => Err(JsonStreamError::Garbage {
                    offset: at,
                    byte: b,
                }),
            },
        }
    }

    fn start_value(&mut self, b: u8, at: u64) -> Result<Step, JsonStreamError> {
        match b {
            b'[' | b'{' => {
                if self.stack.len() >= self.limits.max_depth {
                    return Err(JsonStreamError::TooDeep {
                        offset: at,
                        limit: self.limits.max_depth,
                    });
                }
                self.stack.push(b);
                self.expect = if b == b'[' {
                    Expect::ValueOrClose
                } else {
                    Expect::KeyOrClose
                };
                Ok(Step::Consumed)
            }
            b'"' => {
                self.token = Token::String {
                    state: Str::Plain,
                    key: false,
                };
                Ok(Step::Consumed)
            }
            b'-' => {
                self.token = Token::Number(Num::Minus);
                Ok(Step::Consumed)
            }
            b'0' => {
                self.token = Token::Number(Num::Zero);
                Ok(Step::Consumed)
            }
            b'1'..=b'9' => {
                self.token = Token::Number(Num::Int);
                Ok(Step::Consumed)
            }
            b't' | b'f' | b'n' => {
                let word: &'static [u8] = match b {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                self.token = Token::Literal { word, matched: 1 };
                Ok(Step::Consumed)
            }
            _ => Err(JsonStreamError::Garbage {
                offset: at,
                byte: b,
            }),
        }
    }

    fn close_container(&mut self, open: u8, b: u8, at: u64) -> Result<Step, JsonStreamError> {
        if self.stack.last() != Some(&open) {
            return Err(JsonStreamError::Garbage {
                offset: at,
                byte: b,
            });
        }
        self.stack.pop();
        if self.stack.is_empty() {
            return Ok(Step::Done);
        }
        self.expect = Expect::CommaOrClose;
        Ok(Step::Consumed)
    }

    /// A number or literal ended before the current byte, which is then
    /// looked at again by the enclosing grammar.
    fn value_ended(&mut self) -> Step {
        if self.stack.is_empty() {
            self.scalar_done = true;
        } else {
            self.expect = Expect::CommaOrClose;
        }
        Step::Reprocess
    }
}

enum Step {
    Consumed,
    /// Look at the same byte again in the new state.
    Reprocess,
    /// The value ends with this byte.
    Done,
}

mod error;
mod lexical;
mod strings;
pub use error::JsonStreamError;
pub use lexical::is_json_ws;
use lexical::{Num, is_other_whitespace_start, normalise};

#[cfg(test)]
mod tests;
