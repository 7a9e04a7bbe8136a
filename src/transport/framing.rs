//! Cutting a byte stream into messages. Protocols frame differently (Kalah
//! and QTP are line-based; Dominion S-expressions may come without a
//! newline; Evolution sends JSON values over TCP), so the reader thread is
//! handed a [`Framer`] and the rest of the transport never looks inside the
//! bytes. Multi-line replies (QTP) are assembled by the game from lines,
//! because only the game knows when a reply is complete.

/// What a framer makes of the bytes it has been fed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameEvent {
    /// One complete message, raw bytes including its terminator(s).
    Message(Vec<u8>),
    /// A message grew past the cap before it was complete. Emitted once, as
    /// soon as the cap is crossed; the rest of that message is discarded so a
    /// flooding bot costs bounded memory.
    Overlong { prefix: Vec<u8>, cap: usize },
    /// Bytes left without a terminator when the stream ended.
    Unterminated(Vec<u8>),
}

/// Incremental message splitter; one instance per stream.
pub trait Framer: Send {
    fn feed(&mut self, data: &[u8], out: &mut Vec<FrameEvent>);
    /// The stream has ended: report whatever is left.
    fn finish(&mut self, out: &mut Vec<FrameEvent>);
}

/// How much of an overlong message is kept for the report.
const OVERLONG_PREFIX: usize = 120;

/// One message per LF-terminated line; the LF stays in the message so the
/// game can judge the exact bytes (a CR before it is a Kalah failure).
#[derive(Debug)]
pub struct LineFramer {
    cap: usize,
    buf: Vec<u8>,
    discarding: bool,
}

impl LineFramer {
    pub fn new(cap: usize) -> Self {
        LineFramer {
            cap,
            buf: Vec::new(),
            discarding: false,
        }
    }
}

impl Framer for LineFramer {
    fn feed(&mut self, mut data: &[u8], out: &mut Vec<FrameEvent>) {
        while !data.is_empty() {
            let newline = data.iter().position(|&b| b == b'\n');
            let (chunk, rest, complete) = match newline {
                Some(i) => (&data[..=i], &data[i + 1..], true),
                None => (data, &data[data.len()..], false),
            };
            data = rest;
            if self.discarding {
                if complete {
                    self.discarding = false;
                }
                continue;
            }
            self.buf.extend_from_slice(chunk);
            // The LF itself does not count against the cap.
            let body = self.buf.len() - usize::from(complete);
            if body > self.cap {
                let prefix = self.buf[..OVERLONG_PREFIX.min(self.buf.len())].to_vec();
                out.push(FrameEvent::Overlong {
                    prefix,
                    cap: self.cap,
                });
                self.buf.clear();
                self.discarding = !complete;
            } else if complete {
                out.push(FrameEvent::Message(std::mem::take(&mut self.buf)));
            }
        }
    }

    fn finish(&mut self, out: &mut Vec<FrameEvent>) {
        if !self.buf.is_empty() {
            out.push(FrameEvent::Unterminated(std::mem::take(&mut self.buf)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(framer: &mut dyn Framer, chunks: &[&[u8]]) -> Vec<FrameEvent> {
        let mut out = Vec::new();
        for chunk in chunks {
            framer.feed(chunk, &mut out);
        }
        framer.finish(&mut out);
        out
    }

    fn msg(s: &str) -> FrameEvent {
        FrameEvent::Message(s.as_bytes().to_vec())
    }

    #[test]
    fn lines_split_across_chunks_and_keep_cr() {
        let mut f = LineFramer::new(64);
        let out = run(&mut f, &[b"MOV", b"E;3\nSWAP\r", b"\n\nMOVE;1"]);
        assert_eq!(
            out,
            vec![
                msg("MOVE;3\n"),
                msg("SWAP\r\n"),
                msg("\n"),
                FrameEvent::Unterminated(b"MOVE;1".to_vec())
            ]
        );
    }

    #[test]
    fn overlong_line_is_reported_once_then_discarded_until_lf() {
        let mut f = LineFramer::new(4);
        let out = run(&mut f, &[b"abcdef", b"ghij", b"kl\nok\n"]);
        assert_eq!(
            out,
            vec![
                FrameEvent::Overlong {
                    prefix: b"abcdef".to_vec(),
                    cap: 4
                },
                msg("ok\n")
            ]
        );
    }

    #[test]
    fn line_exactly_at_cap_is_accepted() {
        let mut f = LineFramer::new(4);
        assert_eq!(run(&mut f, &[b"abcd\n"]), vec![msg("abcd\n")]);
    }
}
