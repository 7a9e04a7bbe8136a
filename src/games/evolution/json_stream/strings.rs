//! Inside a JSON string: escapes, UTF-8 checked byte by byte, and the
//! cap on a string's length.

use super::*;

impl JsonStreamReader {
    pub(super) fn string_byte(
        &mut self,
        state: Str,
        key: bool,
        b: u8,
        at: u64,
    ) -> Result<Step, JsonStreamError> {
        let garbage = Err(JsonStreamError::Garbage {
            offset: at,
            byte: b,
        });
        let next = match state {
            Str::Plain => {
                if self.high_surrogate && b != b'\\' {
                    return garbage;
                }
                match b {
                    b'"' => {
                        self.token = Token::None;
                        if key {
                            self.expect = Expect::Colon;
                            return Ok(Step::Consumed);
                        }
                        if self.stack.is_empty() {
                            return Ok(Step::Done);
                        }
                        self.expect = Expect::CommaOrClose;
                        return Ok(Step::Consumed);
                    }
                    b'\\' => Str::Escape,
                    0x00..=0x1f => {
                        self.control_chars = true;
                        Str::Plain
                    }
                    0x20..=0x7f => Str::Plain,
                    0xc2..=0xdf => self.utf8_start(b, 2),
                    0xe0..=0xef => self.utf8_start(b, 3),
                    0xf0..=0xf4 => self.utf8_start(b, 4),
                    _ => return Err(JsonStreamError::InvalidUtf8 { offset: at }),
                }
            }
            Str::Escape => match b {
                b'u' => Str::Unicode { seen: 0, code: 0 },
                _ if self.high_surrogate => return garbage,
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Str::Plain,
                _ => return garbage,
            },
            Str::Unicode { seen, code } => {
                let Some(d) = (b as char).to_digit(16) else {
                    return garbage;
                };
                let code = code << 4 | d as u16;
                if seen < 3 {
                    Str::Unicode {
                        seen: seen + 1,
                        code,
                    }
                } else {
                    let high = (0xd800..=0xdbff).contains(&code);
                    let low = (0xdc00..=0xdfff).contains(&code);
                    // A lone surrogate escape is rejected (like the reference).
                    if (self.high_surrogate && !low) || (!self.high_surrogate && low) {
                        return garbage;
                    }
                    self.high_surrogate = high;
                    Str::Plain
                }
            }
            Str::Utf8 { have, need } => {
                self.utf8[have as usize] = b;
                let have = have + 1;
                if b & 0xc0 != 0x80 {
                    return Err(JsonStreamError::InvalidUtf8 { offset: at });
                }
                if have < need {
                    Str::Utf8 { have, need }
                } else if std::str::from_utf8(&self.utf8[..need as usize]).is_err() {
                    // Overlong forms and encoded surrogates.
                    return Err(JsonStreamError::InvalidUtf8 { offset: at });
                } else {
                    Str::Plain
                }
            }
        };
        self.token = Token::String { state: next, key };
        Ok(Step::Consumed)
    }

    pub(super) fn utf8_start(&mut self, b: u8, need: u8) -> Str {
        self.utf8[0] = b;
        Str::Utf8 { have: 1, need }
    }
}
