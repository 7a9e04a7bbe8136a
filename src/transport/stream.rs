//! Threads that move bytes between protocheck and a bot, for any byte stream
//! (pipes now, a TCP socket for Evolution). They never block the controller:
//! reads are framed and queued as events; writes are queued to a writer
//! thread, so a bot that never reads cannot stall protocheck.

use super::BotEvent;
use super::framing::{FrameEvent, Framer};
use super::idle::{self, Progress};
use std::io::{Read, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Bound on queued messages from one bot: a bot flooding short lines fills it,
/// then blocks in its own write, instead of growing our memory.
pub const EVENT_QUEUE: usize = 4096;

/// Read `source` until EOF, framing it and sending one event per message.
pub fn spawn_reader(
    name: String,
    mut source: impl Read + Send + 'static,
    mut framer: Box<dyn Framer>,
    events: SyncSender<BotEvent>,
    progress: Arc<Progress>,
) {
    let body = move || {
        progress
            .reader_tid
            .store(idle::current_tid(), Ordering::SeqCst);
        let mut buf = vec![0u8; 64 * 1024];
        let mut framed = Vec::new();
        loop {
            let n = match source.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            framer.feed(&buf[..n], &mut framed);
            let at = Instant::now();
            for event in framed.drain(..) {
                if events.send(BotEvent::from_frame(event, at)).is_err() {
                    return; // nobody listens any more
                }
            }
        }
        framer.finish(&mut framed);
        let at = Instant::now();
        let partial = framed.drain(..).find_map(|e| match e {
            FrameEvent::Unterminated(bytes) => Some(bytes),
            _ => None,
        });
        let _ = events.send(BotEvent::OutputClosed { partial, at });
    };
    std::thread::Builder::new()
        .name(name)
        .spawn(body)
        .expect("spawn reader thread");
}

/// What the writer thread is asked to do.
pub enum WriteCommand {
    Bytes(Vec<u8>),
    /// Close the bot's input (EOF), dropping the writer.
    Close,
}

/// Write queued messages to `sink` in order; report the first failure (the
/// bot closed its input or died) as an event and stop.
pub fn spawn_writer(
    name: String,
    mut sink: impl Write + Send + 'static,
    commands: Receiver<WriteCommand>,
    events: SyncSender<BotEvent>,
    progress: Arc<Progress>,
) {
    let body = move || {
        for command in commands {
            match command {
                WriteCommand::Bytes(bytes) => {
                    let written = sink.write_all(&bytes).and_then(|_| sink.flush());
                    if let Ok(mut at) = progress.delivered_at.lock() {
                        *at = Some(Instant::now());
                    }
                    progress
                        .written
                        .fetch_add(bytes.len() as u64, Ordering::SeqCst);
                    if let Err(e) = written {
                        let _ = events.send(BotEvent::InputClosed {
                            error: e.to_string(),
                            at: Instant::now(),
                        });
                        return;
                    }
                }
                WriteCommand::Close => return,
            }
        }
    };
    std::thread::Builder::new()
        .name(name)
        .spawn(body)
        .expect("spawn writer thread");
}

/// The last few KiB a bot wrote to stderr, and how much it wrote in all.
#[derive(Debug, Default)]
pub struct StderrTail {
    pub total: u64,
    tail: Vec<u8>,
    keep: usize,
}

impl StderrTail {
    pub fn new(keep: usize) -> Self {
        StderrTail {
            total: 0,
            tail: Vec::new(),
            keep,
        }
    }

    fn push(&mut self, data: &[u8]) {
        self.total += data.len() as u64;
        self.tail.extend_from_slice(data);
        if self.tail.len() > self.keep {
            let cut = self.tail.len() - self.keep;
            self.tail.drain(..cut);
        }
    }

    /// The kept tail as text (lossy: stderr is for humans).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.tail).into_owned()
    }
}

/// Drain stderr continuously (a bot blocked on a full stderr pipe would look
/// like a timeout), keeping a bounded tail for the report.
pub fn spawn_stderr_drain(
    name: String,
    mut source: impl Read + Send + 'static,
    tail: Arc<Mutex<StderrTail>>,
) {
    let body = move || {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match source.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => tail
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return,
            }
        }
    };
    std::thread::Builder::new()
        .name(name)
        .spawn(body)
        .expect("spawn stderr thread");
}

/// A sender half for write commands.
pub type WriteQueue = Sender<WriteCommand>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_tail_keeps_the_end_and_counts_everything() {
        let mut t = StderrTail::new(4);
        t.push(b"abc");
        t.push(b"defg");
        assert_eq!(t.total, 7);
        assert_eq!(t.text(), "defg");
    }
}
