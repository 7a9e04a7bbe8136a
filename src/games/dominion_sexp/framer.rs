//! Framing the bot's stdout for this protocol (`rules/dominion-sexp.md`
//! §1.2): one message per S-expression, ended by the `)` that closes its
//! first `(` (or the delimiter after a bare atom), never by a newline.
//! Whitespace between expressions is not a message. The bytes of each
//! message are exactly the datum (comments in front of it included, so the
//! session reads the same datum and the same extended syntax again).

use super::sexp::{FrameError, MAX_REPLY_BYTES, Reader};
use crate::transport::framing::{FrameEvent, Framer};

/// How much of an overlong reply is kept for the report.
const OVERLONG_PREFIX: usize = 120;

pub struct SexpFramer {
    reader: Reader,
    /// Bytes fed since the end of the last datum (bounded: whitespace alone
    /// is dropped, and the reader fails past [`MAX_REPLY_BYTES`]).
    buf: Vec<u8>,
    /// After a read error the game is over: the rest is not framed (and
    /// costs no memory).
    discarding: bool,
}

impl Default for SexpFramer {
    fn default() -> Self {
        SexpFramer::new()
    }
}

impl SexpFramer {
    pub fn new() -> SexpFramer {
        SexpFramer {
            reader: Reader::new(),
            buf: Vec::new(),
            discarding: false,
        }
    }

    /// The bytes of the datum (or the failed start of one) that ended in
    /// `buf`, leaving what follows it (a carried delimiter) in `buf`.
    fn take_datum(&mut self, len: usize) -> Vec<u8> {
        let end = self.buf.len() - self.reader.carried_len();
        let start = end.saturating_sub(len);
        let datum = self.buf[start..end].to_vec();
        self.buf.drain(..end);
        datum
    }

    fn trimmed_buf(&mut self) -> Vec<u8> {
        let buf = std::mem::take(&mut self.buf);
        let start = buf
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(buf.len());
        buf[start..].to_vec()
    }

    fn failed(&mut self, e: FrameError, out: &mut Vec<FrameEvent>) {
        self.discarding = true;
        let bytes = self.trimmed_buf();
        out.push(match e {
            FrameError::TooLong => FrameEvent::Overlong {
                prefix: bytes[..bytes.len().min(OVERLONG_PREFIX)].to_vec(),
                cap: MAX_REPLY_BYTES,
            },
            // The session reads these bytes again and gets the same error,
            // with its rule (frame.syntax, invalid UTF-8, too deep).
            _ => FrameEvent::Message(bytes),
        });
    }
}

impl Framer for SexpFramer {
    fn feed(&mut self, mut data: &[u8], out: &mut Vec<FrameEvent>) {
        while !data.is_empty() && !self.discarding {
            let (used, outcome) = self.reader.feed(data);
            self.buf.extend_from_slice(&data[..used]);
            data = &data[used..];
            match outcome {
                Some(Ok(reply)) => {
                    let datum = self.take_datum(reply.len);
                    out.push(FrameEvent::Message(datum));
                }
                Some(Err(e)) => self.failed(e, out),
                None => {
                    if !self.reader.in_progress() {
                        // Only whitespace since the last datum.
                        self.buf.clear();
                    }
                }
            }
        }
    }

    fn finish(&mut self, out: &mut Vec<FrameEvent>) {
        if self.discarding {
            return;
        }
        match self.reader.finish() {
            Some(Ok(reply)) => {
                let datum = self.take_datum(reply.len);
                out.push(FrameEvent::Message(datum));
            }
            Some(Err(_)) => {
                let rest = self.trimmed_buf();
                if !rest.is_empty() {
                    out.push(FrameEvent::Unterminated(rest));
                }
            }
            None => {}
        }
        self.discarding = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(chunks: &[&[u8]]) -> Vec<FrameEvent> {
        let mut f = SexpFramer::new();
        let mut out = Vec::new();
        for c in chunks {
            f.feed(c, &mut out);
        }
        f.finish(&mut out);
        out
    }

    fn msg(s: &str) -> FrameEvent {
        FrameEvent::Message(s.as_bytes().to_vec())
    }

    fn bytewise(data: &[u8]) -> Vec<FrameEvent> {
        let chunks: Vec<&[u8]> = data.chunks(1).collect();
        frame(&chunks)
    }

    #[test]
    fn plays_without_newlines_frame_one_by_one_and_whitespace_is_no_message() {
        let out = frame(&[b"(add copper)(add  copper)\n\n  (buy\n silver)\r\n"]);
        assert_eq!(
            out,
            vec![
                msg("(add copper)"),
                msg("(add  copper)"),
                msg("(buy\n silver)")
            ]
        );
        assert_eq!(frame(&[b"  \n\t \n"]), vec![]);
    }

    #[test]
    fn one_byte_writes_frame_like_one_write() {
        let data =
            b" (add copper)\n[buy silver] ; why\n(clean estate)pass (act mine\n copper silver)";
        let whole = frame(&[data]);
        assert_eq!(bytewise(data), whole);
        assert_eq!(
            whole,
            vec![
                msg("(add copper)"),
                msg("[buy silver]"),
                msg("; why\n(clean estate)"),
                msg("pass"),
                msg("(act mine\n copper silver)")
            ]
        );
    }

    #[test]
    fn a_hundred_plays_in_one_write_are_a_hundred_messages() {
        let plays: Vec<String> = (0..100)
            .map(|i| ["(add copper)", "(buy silver)", "(clean estate)"][i % 3].to_string())
            .collect();
        let data = plays.concat();
        let out = frame(&[data.as_bytes()]);
        assert_eq!(out, plays.iter().map(|p| msg(p)).collect::<Vec<_>>());
        assert_eq!(bytewise(data.as_bytes()), out);
        let mut seven = Vec::new();
        for c in data.as_bytes().chunks(7) {
            seven.push(c);
        }
        assert_eq!(frame(&seven), out);
    }

    #[test]
    fn bytes_after_the_last_expression_at_eof_are_unterminated() {
        assert_eq!(
            frame(&[b"(add copper)\n(buy sil"]),
            vec![
                msg("(add copper)"),
                FrameEvent::Unterminated(b"(buy sil".to_vec())
            ]
        );
        // A bare atom at EOF is complete (the reader's end of input ends it).
        assert_eq!(frame(&[b"(clean) done"]), vec![msg("(clean)"), msg("done")]);
    }

    #[test]
    fn a_read_error_is_a_message_the_session_reads_again_then_nothing_more() {
        let out = frame(&[b"(add copper]\n(add copper)"]);
        assert_eq!(out, vec![msg("(add copper]")]);
        let out = frame(&[b"(add copper))(buy gold)"]);
        assert_eq!(out, vec![msg("(add copper)"), msg(")")]);
        let out = frame(&[b"(add \xff)"]);
        assert_eq!(out, vec![FrameEvent::Message(b"(add \xff".to_vec())]);
    }

    #[test]
    fn an_overlong_reply_is_reported_once_with_the_rules_cap() {
        let mut data = b"(add ".to_vec();
        data.extend(std::iter::repeat_n(b'x', MAX_REPLY_BYTES + 10));
        let chunks: Vec<&[u8]> = data.chunks(4096).collect();
        let out = frame(&chunks);
        assert_eq!(out.len(), 1);
        match &out[0] {
            FrameEvent::Overlong { prefix, cap } => {
                assert_eq!(*cap, MAX_REPLY_BYTES);
                assert!(prefix.starts_with(b"(add xxx"));
                assert_eq!(prefix.len(), OVERLONG_PREFIX);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn whitespace_alone_costs_no_memory() {
        let mut f = SexpFramer::new();
        let mut out = Vec::new();
        for _ in 0..100 {
            f.feed(&[b' '; 4096], &mut out);
        }
        assert!(out.is_empty());
        assert!(f.buf.capacity() <= 8192);
    }
}
