//! The reader's state machine: one character at a time, all state kept
//! between calls (see the parent module).

mod tokens;

use super::{
    Datum, FrameError, MAX_DEPTH, MAX_REPLY_BYTES, Nonstandard, Reply, is_ascii_space,
    is_delimiter, is_unicode_space, looks_numeric,
};

/// Something that applies to the next datum read at its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prefix {
    /// `'` `` ` `` `,` `,@`: the datum is wrapped as `(name datum)`.
    Wrap(&'static str),
    /// `#;`: the datum is dropped.
    Skip,
    /// `#ci` (true) / `#cs` (false).
    Fold(bool),
}

struct Frame {
    items: Vec<Datum>,
    close: char,
    fold: bool,
    /// Prefixes that applied to this list when it opened.
    wrap: Vec<Prefix>,
    /// Prefixes seen inside this list, waiting for their datum.
    pending: Vec<Prefix>,
    /// `.` seen: the next datum is the tail.
    dot: bool,
    tail: Option<Datum>,
}

impl Frame {
    fn new(close: char, fold: bool, wrap: Vec<Prefix>) -> Frame {
        Frame {
            items: Vec::new(),
            close,
            fold,
            wrap,
            pending: Vec::new(),
            dot: false,
            tail: None,
        }
    }
}

/// What the reader is in the middle of, between characters.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Lex {
    Between,
    /// A symbol or number token; `plain` is false once `|` or `\` appeared.
    Token {
        text: String,
        plain: bool,
        in_bars: bool,
        escape: bool,
    },
    Str {
        text: String,
        escape: bool,
    },
    LineComment,
    /// `#|` comments nest; `last` is the previous character.
    BlockComment {
        depth: u32,
        last: char,
    },
    /// After `#`, the characters read so far.
    Hash(String),
    /// After `,`: `@` may follow.
    Comma,
}

/// The streaming reader. One per bot; [`Reader::reset`] between replies is
/// not needed: after a datum it starts on the next one.
pub struct Reader {
    lex: Lex,
    /// `frames[0]` is the top level, whose items are never used.
    frames: Vec<Frame>,
    nonstandard: Option<Nonstandard>,
    /// Bytes since the reply's first non-whitespace byte (0: not started).
    len: usize,
    /// An incomplete UTF-8 sequence.
    utf8: [u8; 4],
    utf8_len: usize,
    utf8_need: usize,
    failed: Option<FrameError>,
    done: Option<Datum>,
    /// Open lists plus pending quote prefixes: the depth of the datum being
    /// built.
    nesting: usize,
    /// The delimiter that ended a bare atom, read again at the next call.
    carry: Option<char>,
    work: u64,
}

impl Default for Reader {
    fn default() -> Self {
        Reader::new()
    }
}

impl Reader {
    pub fn new() -> Reader {
        Reader {
            lex: Lex::Between,
            frames: vec![Frame::new('\0', false, Vec::new())],
            nonstandard: None,
            len: 0,
            utf8: [0; 4],
            utf8_len: 0,
            utf8_need: 0,
            failed: None,
            done: None,
            carry: None,
            nesting: 0,
            work: 0,
        }
    }

    /// Bytes examined so far: each byte is examined exactly once, whatever
    /// the chunking (a test checks this to prove linear work).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Bytes of the delimiter that ended the last bare atom: consumed by the
    /// last [`Reader::feed`] but part of what follows the datum.
    pub fn carried_len(&self) -> usize {
        self.carry.map_or(0, char::len_utf8)
    }

    /// True when a reply has started and not yet completed (the partial
    /// bytes a timeout report shows).
    pub fn in_progress(&self) -> bool {
        self.len > 0
            || self.utf8_len > 0
            || self
                .carry
                .is_some_and(|c| !(is_ascii_space(c) || is_unicode_space(c)))
    }

    /// Reads from `input` until one datum completes, an error occurs or the
    /// input runs out. Returns the number of bytes consumed (up to the
    /// datum's `)`; a bare atom ends at the delimiter after it, which is
    /// consumed but kept for the next call) and the outcome, `None` when more
    /// input is needed.
    pub fn feed(&mut self, input: &[u8]) -> (usize, Option<Result<Reply, FrameError>>) {
        if let Some(e) = &self.failed {
            return (0, Some(Err(e.clone())));
        }
        if let Some(c) = self.carry.take()
            && let Some(outcome) = self.step_char(c)
        {
            return (0, Some(outcome));
        }
        for (i, &b) in input.iter().enumerate() {
            self.work += 1;
            let c = match self.decode(b) {
                Ok(Some(c)) => c,
                Ok(None) => continue,
                Err(e) => return (i + 1, Some(Err(self.fail(e)))),
            };
            if let Some(outcome) = self.step_char(c) {
                return (i + 1, Some(outcome));
            }
        }
        (input.len(), None)
    }

    fn step_char(&mut self, c: char) -> Option<Result<Reply, FrameError>> {
        match self.step(c) {
            Ok(Step::More) => None,
            Ok(Step::DoneBefore) => {
                // The delimiter that ended a bare atom starts what follows.
                self.carry = Some(c);
                Some(Ok(self.take_reply(c.len_utf8())))
            }
            Ok(Step::Done) => Some(Ok(self.take_reply(0))),
            Err(e) => Some(Err(self.fail(e))),
        }
    }

    /// End of input: completes a bare atom in progress. `None` when nothing
    /// but whitespace and comments was pending.
    pub fn finish(&mut self) -> Option<Result<Reply, FrameError>> {
        if let Some(e) = &self.failed {
            return Some(Err(e.clone()));
        }
        if let Some(c) = self.carry.take()
            && let Some(outcome) = self.step_char(c)
        {
            return Some(outcome);
        }
        if self.utf8_need > 0 {
            return Some(Err(self.fail(FrameError::InvalidUtf8)));
        }
        let unterminated = match &self.lex {
            Lex::Token { in_bars: true, .. } => Some("an unterminated `|` in a symbol"),
            Lex::Token { escape: true, .. } => Some("a `\\` at end of input"),
            Lex::Token { .. } | Lex::Comma | Lex::LineComment | Lex::Between => None,
            Lex::Str { .. } => Some("an unterminated string"),
            Lex::BlockComment { .. } => Some("an unterminated `#|` comment"),
            Lex::Hash(_) => Some("an incomplete `#` form"),
        };
        if let Some(what) = unterminated {
            return Some(Err(
                self.fail(FrameError::Syntax(format!("end of input in {what}")))
            ));
        }
        if matches!(self.lex, Lex::Token { .. }) {
            return match self.end_token() {
                Ok(()) if self.done.is_some() => Some(Ok(self.take_reply(0))),
                Ok(()) => self.finish(),
                Err(e) => Some(Err(self.fail(e))),
            };
        }
        if self.frames.len() > 1 {
            return Some(Err(self.fail(FrameError::Syntax(
                "end of input inside an unclosed list".into(),
            ))));
        }
        if !self.frames[0].pending.is_empty() || self.lex == Lex::Comma {
            return Some(Err(self.fail(FrameError::Syntax(
                "end of input after a prefix that needs a datum".into(),
            ))));
        }
        None
    }

    fn fail(&mut self, e: FrameError) -> FrameError {
        self.failed = Some(e.clone());
        e
    }

    fn take_reply(&mut self, unconsumed: usize) -> Reply {
        debug_assert_eq!(self.nesting, 0, "a complete datum leaves no nesting");
        let reply = Reply {
            datum: self.done.take().expect("a completed datum"),
            nonstandard: self.nonstandard.take(),
            len: self.len - unconsumed,
        };
        self.len = 0;
        self.lex = Lex::Between;
        reply
    }

    fn decode(&mut self, b: u8) -> Result<Option<char>, FrameError> {
        if self.utf8_need == 0 {
            if b < 0x80 {
                return Ok(Some(b as char));
            }
            self.utf8_need = match b {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => return Err(FrameError::InvalidUtf8),
            };
            self.utf8[0] = b;
            self.utf8_len = 1;
            return Ok(None);
        }
        if b & 0xC0 != 0x80 {
            return Err(FrameError::InvalidUtf8);
        }
        self.utf8[self.utf8_len] = b;
        self.utf8_len += 1;
        if self.utf8_len < self.utf8_need {
            return Ok(None);
        }
        let bytes = &self.utf8[..self.utf8_len];
        self.utf8_need = 0;
        self.utf8_len = 0;
        // Overlong forms and surrogates are rejected here.
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.chars().next()),
            Err(_) => Err(FrameError::InvalidUtf8),
        }
    }

    fn flag(&mut self, n: Nonstandard) {
        self.nonstandard.get_or_insert(n);
    }

    fn top(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("the top-level frame")
    }

    fn step(&mut self, c: char) -> Result<Step, FrameError> {
        let started = self.len > 0;
        if started || !(is_ascii_space(c) || is_unicode_space(c)) {
            self.len += c.len_utf8();
            if self.len > MAX_REPLY_BYTES {
                return Err(FrameError::TooLong);
            }
        }
        match std::mem::replace(&mut self.lex, Lex::Between) {
            Lex::Between => self.between(c),
            Lex::Comma => {
                if c == '@' {
                    self.wrap("unquote-splicing")
                } else {
                    self.wrap("unquote")?;
                    self.between(c)
                }
            }
            Lex::LineComment => {
                if c != '\n' && c != '\r' {
                    self.lex = Lex::LineComment;
                }
                Ok(Step::More)
            }
            Lex::BlockComment { depth, last } => {
                let (depth, last) = match (last, c) {
                    ('|', '#') if depth == 1 => return Ok(Step::More),
                    ('|', '#') => (depth - 1, '\0'),
                    ('#', '|') => (depth + 1, '\0'),
                    _ => (depth, c),
                };
                self.lex = Lex::BlockComment { depth, last };
                Ok(Step::More)
            }
            Lex::Str { mut text, escape } => {
                if escape {
                    text.push(match c {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        other => other,
                    });
                    self.lex = Lex::Str {
                        text,
                        escape: false,
                    };
                } else if c == '\\' {
                    self.lex = Lex::Str { text, escape: true };
                } else if c == '"' {
                    return self.complete(Datum::Str(text));
                } else {
                    text.push(c);
                    self.lex = Lex::Str {
                        text,
                        escape: false,
                    };
                }
                Ok(Step::More)
            }
            Lex::Token {
                mut text,
                plain,
                in_bars,
                escape,
            } => {
                if escape {
                    text.push(c);
                    self.lex = Lex::Token {
                        text,
                        plain,
                        in_bars,
                        escape: false,
                    };
                } else if in_bars {
                    if c != '|' {
                        text.push(c);
                    }
                    self.lex = Lex::Token {
                        text,
                        plain,
                        in_bars: c != '|',
                        escape: false,
                    };
                } else if c == '|' || c == '\\' {
                    self.flag(Nonstandard::BarOrEscape);
                    self.lex = Lex::Token {
                        text,
                        plain: false,
                        in_bars: c == '|',
                        escape: c == '\\',
                    };
                } else if is_delimiter(c) {
                    self.lex = Lex::Token {
                        text,
                        plain,
                        in_bars,
                        escape,
                    };
                    self.end_token()?;
                    if self.done.is_some() {
                        // The delimiter belongs to what follows: not counted.
                        return Ok(Step::DoneBefore);
                    }
                    return self.between(c);
                } else {
                    text.push(c);
                    self.lex = Lex::Token {
                        text,
                        plain,
                        in_bars,
                        escape,
                    };
                }
                Ok(Step::More)
            }
            Lex::Hash(mut text) => self.hash(&mut text, c),
        }
    }

    /// One more level of list nesting, counting the lists that quote
    /// prefixes build (`'x` is `(quote x)`): past [`MAX_DEPTH`] the reply
    /// is not parsed further.
    fn deeper(&mut self) -> Result<(), FrameError> {
        self.nesting += 1;
        if self.nesting > MAX_DEPTH {
            return Err(FrameError::TooDeep);
        }
        Ok(())
    }

    fn wrap(&mut self, name: &'static str) -> Result<Step, FrameError> {
        self.deeper()?;
        self.top().pending.push(Prefix::Wrap(name));
        Ok(Step::More)
    }

    /// A datum is complete at the current level: apply the level's pending
    /// prefixes and add it to the list, or finish the reply at the top.
    fn complete(&mut self, datum: Datum) -> Result<Step, FrameError> {
        let pending = std::mem::take(&mut self.top().pending);
        self.nesting -= wraps(&pending);
        self.place(datum, &pending)
    }

    fn place(&mut self, mut datum: Datum, prefixes: &[Prefix]) -> Result<Step, FrameError> {
        for (k, p) in prefixes.iter().enumerate().rev() {
            match p {
                Prefix::Wrap(name) => {
                    datum = Datum::List(vec![Datum::Symbol(name.to_string()), datum])
                }
                Prefix::Skip => {
                    // `#;` drops this datum; the prefixes written before it
                    // apply to the next one (`#;#;a b c` reads as `c`).
                    let outer = &prefixes[..k];
                    self.nesting += wraps(outer);
                    self.top().pending.extend_from_slice(outer);
                    return Ok(Step::More);
                }
                Prefix::Fold(_) => {}
            }
        }
        if self.frames.len() == 1 {
            self.done = Some(datum);
            return Ok(Step::Done);
        }
        let frame = self.top();
        if frame.tail.is_some() {
            return Err(FrameError::Syntax("more than one datum after `.`".into()));
        }
        if frame.dot {
            frame.tail = Some(datum);
        } else {
            frame.items.push(datum);
        }
        Ok(Step::More)
    }

    fn close(&mut self, c: char) -> Result<Step, FrameError> {
        if self.frames.len() == 1 {
            return Err(FrameError::Syntax(format!("a stray `{c}`")));
        }
        let frame = self.frames.last().expect("an open list");
        if frame.close != c {
            return Err(FrameError::Syntax(format!(
                "`{c}` closes a list opened with the bracket for `{}`",
                frame.close
            )));
        }
        if !frame.pending.is_empty() {
            return Err(FrameError::Syntax(format!(
                "`{c}` right after a prefix that needs a datum"
            )));
        }
        if frame.dot && frame.tail.is_none() {
            return Err(FrameError::Syntax("no datum after `.`".into()));
        }
        let frame = self.frames.pop().expect("an open list");
        self.nesting -= 1 + wraps(&frame.wrap);
        let mut items = frame.items;
        let datum = match frame.tail {
            None => Datum::List(items),
            Some(Datum::List(rest)) => {
                items.extend(rest);
                Datum::List(items)
            }
            Some(Datum::Improper(rest, tail)) => {
                items.extend(rest);
                Datum::Improper(items, tail)
            }
            Some(tail) => Datum::Improper(items, Box::new(tail)),
        };
        let step = self.place(datum, &frame.wrap)?;
        Ok(step)
    }
}

fn wraps(prefixes: &[Prefix]) -> usize {
    prefixes
        .iter()
        .filter(|p| matches!(p, Prefix::Wrap(_)))
        .count()
}

fn fold_of(pending: &[Prefix], inherited: bool) -> bool {
    pending
        .iter()
        .rev()
        .find_map(|p| match p {
            Prefix::Fold(f) => Some(*f),
            _ => None,
        })
        .unwrap_or(inherited)
}

enum Step {
    More,
    /// A datum completed with this character.
    Done,
    /// A bare atom completed just before this character (its delimiter).
    DoneBefore,
}
