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
