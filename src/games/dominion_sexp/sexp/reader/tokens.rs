//! The reader between data and at token ends: whitespace and comments,
//! `#` syntax, and where an atom ends.

use super::*;

impl Reader {
    pub(super) fn between(&mut self, c: char) -> Result<Step, FrameError> {
        if is_ascii_space(c) {
            return Ok(Step::More);
        }
        if is_unicode_space(c) {
            self.flag(Nonstandard::UnicodeSpace);
            return Ok(Step::More);
        }
        match c {
            '(' | '[' | '{' => {
                if c == '[' {
                    self.flag(Nonstandard::Brackets);
                } else if c == '{' {
                    self.flag(Nonstandard::Braces);
                }
                self.deeper()?;
                let close = match c {
                    '(' => ')',
                    '[' => ']',
                    _ => '}',
                };
                let parent = self.top();
                let fold = fold_of(&parent.pending, parent.fold);
                let wrap = std::mem::take(&mut parent.pending);
                self.frames.push(Frame::new(close, fold, wrap));
                Ok(Step::More)
            }
            ')' | ']' | '}' => self.close(c),
            '"' => {
                self.lex = Lex::Str {
                    text: String::new(),
                    escape: false,
                };
                Ok(Step::More)
            }
            ';' => {
                self.flag(Nonstandard::LineComment);
                self.lex = Lex::LineComment;
                Ok(Step::More)
            }
            '\'' => self.wrap("quote"),
            '`' => self.wrap("quasiquote"),
            ',' => {
                self.lex = Lex::Comma;
                Ok(Step::More)
            }
            '#' => {
                self.lex = Lex::Hash(String::new());
                Ok(Step::More)
            }
            '|' | '\\' => {
                self.flag(Nonstandard::BarOrEscape);
                self.lex = Lex::Token {
                    text: String::new(),
                    plain: false,
                    in_bars: c == '|',
                    escape: c == '\\',
                };
                Ok(Step::More)
            }
            _ => {
                self.lex = Lex::Token {
                    text: c.to_string(),
                    plain: true,
                    in_bars: false,
                    escape: false,
                };
                Ok(Step::More)
            }
        }
    }

    pub(super) fn hash(&mut self, text: &mut String, c: char) -> Result<Step, FrameError> {
        let unsupported = |t: &str, c: char| {
            FrameError::Syntax(format!("unsupported `#{t}{c}` syntax (not a play)"))
        };
        match (text.as_str(), c) {
            ("", '|') => {
                self.flag(Nonstandard::BlockComment);
                self.lex = Lex::BlockComment {
                    depth: 1,
                    last: '\0',
                };
            }
            ("", ';') => {
                self.flag(Nonstandard::DatumComment);
                self.top().pending.push(Prefix::Skip);
            }
            ("", '!') | ("", 'c') | ("", 'C') => {
                text.push(c);
                self.lex = Lex::Hash(std::mem::take(text));
            }
            ("!", ' ') | ("!", '/') => {
                self.flag(Nonstandard::HashBangComment);
                self.lex = Lex::LineComment;
            }
            ("c" | "C", 'i' | 'I' | 's' | 'S') => {
                self.flag(Nonstandard::CaseMode);
                let fold = matches!(c, 'i' | 'I');
                self.top().pending.push(Prefix::Fold(fold));
            }
            (t, d) if d.is_ascii_digit() && t.bytes().all(|b| b.is_ascii_digit()) => {
                if t.len() >= 8 {
                    return Err(unsupported(t, d));
                }
                text.push(d);
                self.lex = Lex::Hash(std::mem::take(text));
            }
            (t, '=') if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
                // The label itself changes nothing for a play; references
                // (`#0#`) are not supported and read as a syntax error.
                self.flag(Nonstandard::GraphLabel);
            }
            (t, c) => return Err(unsupported(t, c)),
        }
        Ok(Step::More)
    }

    pub(super) fn end_token(&mut self) -> Result<(), FrameError> {
        let Lex::Token { text, plain, .. } = std::mem::replace(&mut self.lex, Lex::Between) else {
            return Ok(());
        };
        if plain && text == "." {
            let depth = self.frames.len();
            let frame = self.top();
            if depth == 1 || frame.items.is_empty() || frame.dot {
                return Err(FrameError::Syntax("a misplaced `.`".into()));
            }
            self.flag(Nonstandard::Dotted);
            self.top().dot = true;
            return Ok(());
        }
        let datum = if plain && looks_numeric(&text) {
            Datum::Number(text)
        } else {
            let frame = self.frames.last().expect("the top-level frame");
            if plain && fold_of(&frame.pending, frame.fold) {
                Datum::Symbol(text.to_lowercase())
            } else {
                Datum::Symbol(text)
            }
        };
        self.complete(datum).map(|_| ())
    }
}
