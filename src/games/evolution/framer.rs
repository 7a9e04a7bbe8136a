//! A [`Framer`] for protocols whose messages are bare JSON values on a byte
//! stream (Evolution over TCP), built on [`JsonStreamReader`].
//!
//! The controller assembles a reply from pieces (`Session::reply_part`), so
//! the framer hands on pieces with one simple convention the game reads:
//! **a piece that ends with LF completes a value**, and the concatenation of
//! a value's pieces is its bytes plus that LF. Whitespace between values is
//! dropped (it is never judged). Before a value is complete, the framer
//! hands on *hints* that never end with LF: the first byte of a value that
//! has begun, and the digits of a top-level number (or a literal) that is
//! grammatically complete but has no delimiter yet. So at a deadline the game
//! can tell "nothing", "a partial value" and "an undelimited number" apart
//! (rules digest §1.5, item 5), although the reader runs on another thread.
//!
//! A framing error ends the stream for good (the reference drops the
//! player): the bytes from the value's start up to what was read are handed
//! on as one completed piece, which the game re-reads to find the error; a
//! value over the size cap becomes [`FrameEvent::Overlong`].

use crate::transport::framing::{FrameEvent, Framer};
use super::json_stream::{JsonLimits, JsonStreamError, JsonStreamReader, Pending};

/// How much of an overlong value is kept for the report.
const OVERLONG_PREFIX: usize = 120;

/// The JSON-value framer; one per connection.
#[derive(Debug)]
pub struct JsonFramer {
    reader: JsonStreamReader,
    cap: usize,
    /// Bytes of the current (incomplete) value already handed on as hints.
    emitted: usize,
    /// A framing error was handed on: everything after it is ignored.
    dead: bool,
}

impl JsonFramer {
    /// `cap`: the largest value accepted (Evolution: 64 KiB); nesting is
    /// capped at 128 levels.
    pub fn new(cap: usize) -> JsonFramer {
        JsonFramer {
            reader: JsonStreamReader::new(JsonLimits {
                max_bytes: cap,
                ..JsonLimits::default()
            }),
            cap,
            emitted: 0,
            dead: false,
        }
    }

    /// The bytes of the value begun but not complete (leading whitespace
    /// skipped).
    fn partial(&self) -> &[u8] {
        let unread = self.reader.unread();
        let start = unread
            .iter()
            .position(|b| !super::json_stream::is_json_ws(*b))
            .unwrap_or(unread.len());
        &unread[start..]
    }

    fn drain(&mut self, out: &mut Vec<FrameEvent>) {
        while !self.dead {
            match self.reader.next_frame() {
                Ok(Some(frame)) => {
                    let mut piece = frame.raw[self.emitted.min(frame.raw.len())..].to_vec();
                    piece.push(b'\n');
                    self.emitted = 0;
                    out.push(FrameEvent::Message(piece));
                }
                Ok(None) => {
                    self.hint(out);
                    return;
                }
                Err(JsonStreamError::Closed) => return,
                Err(JsonStreamError::TooBig { .. }) => {
                    let partial = self.partial();
                    let prefix = partial[..OVERLONG_PREFIX.min(partial.len())].to_vec();
                    out.push(FrameEvent::Overlong {
                        prefix,
                        cap: self.cap,
                    });
                    self.dead = true;
                }
                Err(JsonStreamError::Truncated { .. }) => {
                    let rest = self.partial().to_vec();
                    out.push(FrameEvent::Unterminated(rest));
                    self.dead = true;
                }
                Err(_) => {
                    let mut piece = self.partial()[self.emitted..].to_vec();
                    piece.push(b'\n');
                    out.push(FrameEvent::Message(piece));
                    self.dead = true;
                }
            }
        }
    }

    /// Hand on what a deadline needs to know about an incomplete value.
    fn hint(&mut self, out: &mut Vec<FrameEvent>) {
        let upto = match self.reader.pending() {
            Pending::Nothing => return,
            Pending::Partial => 1,
            Pending::UndelimitedScalar => self.partial().len(),
        };
        if upto > self.emitted {
            let piece = self.partial()[self.emitted..upto].to_vec();
            self.emitted = upto;
            out.push(FrameEvent::Message(piece));
        }
    }
}

impl Framer for JsonFramer {
    fn feed(&mut self, data: &[u8], out: &mut Vec<FrameEvent>) {
        if self.dead {
            return;
        }
        self.reader.feed(data);
        self.drain(out);
    }

    fn finish(&mut self, out: &mut Vec<FrameEvent>) {
        if self.dead {
            return;
        }
        self.reader.close();
        self.drain(out);
    }
}

/// A piece from [`JsonFramer`] completes a value.
pub fn completes_value(piece: &[u8]) -> bool {
    piece.last() == Some(&b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(chunks: &[&[u8]], close: bool) -> Vec<FrameEvent> {
        let mut f = JsonFramer::new(64 * 1024);
        let mut out = Vec::new();
        for c in chunks {
            f.feed(c, &mut out);
        }
        if close {
            f.finish(&mut out);
        }
        out
    }

    fn m(s: &str) -> FrameEvent {
        FrameEvent::Message(s.as_bytes().to_vec())
    }

    #[test]
    fn several_values_in_one_write_come_out_one_by_one() {
        assert_eq!(
            run(&[b" \"me\" [1,[2]]\r\n\t3 "], false),
            vec![m("\"me\"\n"), m("[1,[2]]\n"), m("3\n")]
        );
    }

    #[test]
    fn a_value_in_one_byte_writes_gives_one_hint_then_the_rest() {
        let text = b"[0,[[1,3]],[],[[1,2]],[]] ";
        let chunks: Vec<&[u8]> = text.chunks(1).collect();
        let out = run(&chunks, false);
        assert_eq!(out, vec![m("["), m("0,[[1,3]],[],[[1,2]],[]]\n")]);
    }

    #[test]
    fn an_undelimited_number_is_hinted_digit_by_digit_and_completes_at_a_delimiter() {
        assert_eq!(run(&[b"1", b"2"], false), vec![m("1"), m("2")]);
        assert_eq!(
            run(&[b"1", b"2", b" "], false),
            vec![m("1"), m("2"), m("\n")]
        );
        // A non-whitespace byte also ends it, and starts the next value.
        assert_eq!(
            run(&[b"7", b"[1]"], false),
            vec![m("7"), m("\n"), m("[1]\n")]
        );
        // End of stream completes it too (D8).
        assert_eq!(run(&[b"0"], true), vec![m("0"), m("\n")]);
    }

    #[test]
    fn garbage_is_handed_on_once_completed_and_the_stream_ends() {
        assert_eq!(run(&[b"[1]x", b"[2] "], false), vec![m("[1]\n"), m("x\n")]);
        assert_eq!(run(&[b"\xef\xbb\xbf0 "], false), vec![m("\u{feff}0 \n")]);
    }

    #[test]
    fn a_truncated_value_at_the_end_is_unterminated() {
        assert_eq!(
            run(&[b"[1,"], true),
            vec![m("["), FrameEvent::Unterminated(b"[1,".to_vec())]
        );
    }

    #[test]
    fn an_overlong_value_is_reported_once() {
        let mut f = JsonFramer::new(16);
        let mut out = Vec::new();
        f.feed(b"\"aaaaaaaaaaaaaaaaaaaaaaaaa\" 1 ", &mut out);
        assert!(matches!(
            out.last(),
            Some(FrameEvent::Overlong { cap: 16, .. })
        ));
        let n = out.len();
        f.feed(b"2 ", &mut out);
        assert_eq!(out.len(), n);
    }
}
