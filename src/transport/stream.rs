//! Threads that move bytes between protocheck and a bot, for any byte stream
//! (pipes now, a TCP socket for Evolution). They never block the controller:
//! reads are framed and queued as events; writes are queued to a writer
//! thread, so a bot that never reads cannot stall protocheck. A message the
//! bot's stdin pipe takes at once is written straight from the controller
//! ([`PipeInput`]): one thread hand-off less per message, which is most of
//! what a move costs in a fast game.

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
                    progress.delivered(bytes.len() as u64);
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

/// The write end of a bot's stdin pipe, non-blocking, shared by the
/// controller ([`PipeInput::write_now`]) and the writer thread (its
/// [`PipeInput::writer`] side, which waits for room with `poll`).
#[derive(Clone)]
pub struct PipeInput {
    pipe: Arc<Mutex<Option<std::process::ChildStdin>>>,
}

impl PipeInput {
    /// Make the pipe non-blocking (only protocheck's end: the bot's read
    /// end is another open file and is unchanged).
    pub fn new(stdin: std::process::ChildStdin) -> std::io::Result<PipeInput> {
        use std::os::fd::AsRawFd;
        let fd = stdin.as_raw_fd();
        // SAFETY: fcntl on a descriptor this value owns.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(PipeInput {
            pipe: Arc::new(Mutex::new(Some(stdin))),
        })
    }

    /// Write as much of `bytes` as the pipe takes without waiting; how much
    /// that was (0 when it is full, closed or failing: the writer thread
    /// then writes it, and reports a failure).
    pub fn write_now(&self, bytes: &[u8]) -> usize {
        let guard = self.pipe.lock().unwrap_or_else(|e| e.into_inner());
        let Some(mut pipe) = guard.as_ref() else {
            return 0;
        };
        let mut done = 0;
        while done < bytes.len() {
            match pipe.write(&bytes[done..]) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        done
    }

    /// The writer thread's side: blocking writes (waiting for room), and
    /// the pipe closed (the bot reads end-of-file) when it is dropped.
    pub fn writer(&self) -> PipeWriter {
        PipeWriter {
            pipe: Arc::clone(&self.pipe),
        }
    }
}

/// See [`PipeInput::writer`].
pub struct PipeWriter {
    pipe: Arc<Mutex<Option<std::process::ChildStdin>>>,
}

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        use std::os::fd::AsRawFd;
        loop {
            let guard = self.pipe.lock().unwrap_or_else(|e| e.into_inner());
            let Some(mut pipe) = guard.as_ref() else {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            };
            match pipe.write(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    let fd = pipe.as_raw_fd();
                    // Wait for room without holding the lock. Only this
                    // thread closes the pipe, so `fd` stays ours.
                    drop(guard);
                    let mut poll = libc::pollfd {
                        fd,
                        events: libc::POLLOUT,
                        revents: 0,
                    };
                    // SAFETY: one valid pollfd; an error or a hang-up is
                    // seen by the next write.
                    unsafe { libc::poll(&mut poll, 1, -1) };
                }
                other => return other,
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for PipeWriter {
    fn drop(&mut self) {
        self.pipe.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// The last few KiB a bot wrote to stderr, and how much it wrote in all.
#[derive(Debug, Default)]
pub struct StderrTail {
    pub total: u64,
    tail: Vec<u8>,
    keep: usize,
    /// Drains still reading into this tail (a bot over TCP has two: its
    /// stdout and its stderr); none: nothing more comes.
    open_drains: usize,
}

impl StderrTail {
    pub fn new(keep: usize) -> Self {
        StderrTail {
            total: 0,
            tail: Vec::new(),
            keep,
            open_drains: 0,
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

    /// Every drain reading into it has reached end-of-file (or has none).
    pub fn complete(&self) -> bool {
        self.open_drains == 0
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
    tail.lock().unwrap_or_else(|e| e.into_inner()).open_drains += 1;
    let body = move || {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match source.read(&mut buf) {
                Ok(n) if n > 0 => tail
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                _ => break,
            }
        }
        tail.lock().unwrap_or_else(|e| e.into_inner()).open_drains -= 1;
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

    /// A tail is complete once every drain reading into it reached the end
    /// of its source (what a gone bot wrote last is in by then), and at
    /// once where nothing drains into it (a client the user started).
    #[test]
    fn a_tail_is_complete_once_every_drain_reached_the_end() {
        let tail = Arc::new(Mutex::new(StderrTail::new(64)));
        assert!(tail.lock().unwrap().complete(), "no drain");
        let (release_a, a) = std::sync::mpsc::channel::<()>();
        let (release_b, b) = std::sync::mpsc::channel::<()>();
        // Sources that give their text only when let go, then end.
        struct Held(std::sync::mpsc::Receiver<()>, Option<&'static [u8]>);
        impl Read for Held {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let _ = self.0.recv();
                Ok(match self.1.take() {
                    Some(text) => {
                        buf[..text.len()].copy_from_slice(text);
                        text.len()
                    }
                    None => 0,
                })
            }
        }
        spawn_stderr_drain("t-a".into(), Held(a, Some(b"denied\n")), Arc::clone(&tail));
        spawn_stderr_drain("t-b".into(), Held(b, None), Arc::clone(&tail));
        assert!(!tail.lock().unwrap().complete(), "two drains still read");
        release_a.send(()).unwrap();
        drop(release_a);
        release_b.send(()).unwrap();
        drop(release_b);
        while !tail.lock().unwrap().complete() {
            std::thread::yield_now();
        }
        assert_eq!(tail.lock().unwrap().text(), "denied\n");
    }

    /// A pipe (read end, protocheck's write end as a child's stdin).
    fn pipe() -> (std::fs::File, std::process::ChildStdin) {
        use std::os::fd::{FromRawFd, OwnedFd};
        let mut fds = [0; 2];
        // SAFETY: pipe writes two fresh descriptors, owned from here on.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            (
                std::fs::File::from_raw_fd(fds[0]),
                std::process::ChildStdin::from(OwnedFd::from_raw_fd(fds[1])),
            )
        }
    }

    #[test]
    fn a_pipe_takes_what_fits_now_and_the_writer_waits_for_room_then_closes_it() {
        let (mut bot_side, stdin) = pipe();
        let input = PipeInput::new(stdin).unwrap();
        assert_eq!(input.write_now(b"hello\n"), 6, "an empty pipe takes a line");
        let big = vec![b'x'; 1 << 20];
        let taken = input.write_now(&big);
        assert!(
            taken > 0 && taken < big.len(),
            "a full pipe stops it: {taken}"
        );
        assert_eq!(input.write_now(b"y"), 0, "nothing more fits now");
        // The writer thread's side waits for room instead of failing.
        let mut writer = input.writer();
        let thread = std::thread::spawn(move || writer.write_all(b"tail"));
        let mut all = Vec::new();
        bot_side.read_to_end(&mut all).unwrap(); // ends when the writer is dropped
        thread.join().unwrap().unwrap();
        assert_eq!(all.len(), 6 + taken + 4);
        assert!(all.starts_with(b"hello\n") && all.ends_with(b"xtail"));
        assert_eq!(input.write_now(b"z"), 0, "closed with the writer");
    }
}
