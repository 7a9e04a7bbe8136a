//! Transport: everything about talking to an untrusted bot. The controller
//! sees a [`BotConnection`]: send bytes, receive timed [`BotEvent`]s, ask for
//! the stderr tail, terminate. Nothing here knows any game.

pub mod cpu_wait;
pub mod environment;
pub mod exit_status;
pub mod framing;
pub mod guard;
pub mod idle;
pub mod limits;
mod live;
pub mod peer;
pub mod process;
#[cfg(target_os = "linux")]
pub mod procfs;
pub mod sandbox;
pub mod signals;
#[cfg(target_os = "linux")]
mod sock_diag;
pub mod stream;
pub mod tag;
pub mod tcp;
pub mod tcp_connection;
#[cfg(target_os = "linux")]
mod vfork_spawn;

pub use exit_status::ExitStatus;
use framing::{FrameEvent, Framer};
use idle::{IdleProbe, Progress};
use limits::LimitHit;
pub use limits::ResourceLimits;
pub use process::ProcessGroup;
use std::process::Command;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use stream::{StderrTail, WriteCommand, WriteQueue};

/// How a game's messages travel (a game's `Wire` names one; the bot's
/// environment depends on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// The bot's standard input and output (a child process).
    Stdio,
    /// A TCP connection the bot opens to protocheck on 127.0.0.1.
    Tcp,
}

/// Something observed on the connection, stamped with when it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotEvent {
    /// A complete message (raw bytes with terminator).
    Message { bytes: Vec<u8>, at: Instant },
    /// A message longer than the cap; the rest of it was discarded.
    Overlong {
        prefix: Vec<u8>,
        cap: usize,
        at: Instant,
    },
    /// The bot's output stream ended (EOF), possibly after unterminated bytes.
    OutputClosed {
        partial: Option<Vec<u8>>,
        at: Instant,
    },
    /// Writing to the bot failed: it closed its input or died.
    InputClosed { error: String, at: Instant },
    /// The bot's main process ended.
    Exited { status: ExitStatus, at: Instant },
    /// Connection-level news from a TCP transport (the bot never connected,
    /// or opened another connection).
    Connection { event: ConnectionEvent, at: Instant },
}

/// What a TCP transport reports about connections (games over pipes never
/// see these).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnectionEvent {
    /// The bot connected (the sign-up's deadline starts now).
    Connected { peer: String },
    /// No connection within `waited`; `exited`: the bot ended before it
    /// connected.
    NeverConnected {
        waited: Duration,
        exited: Option<ExitStatus>,
    },
    /// Another connection arrived after the first; it was closed at once.
    Extra { peer: String },
    /// A connection from a process that is not the bot's (`peer::Peer::
    /// Stranger`): closed unplayed, and the bot's is still awaited. Not the
    /// bot's doing, so never a finding.
    Stranger {
        peer: String,
        pid: i32,
        program: String,
    },
    /// A connection whose other end was closed before it could be told
    /// whose it was (`peer::Peer::Gone`, e.g. a port scan's): closed
    /// unplayed, and the bot's is still awaited. Never a finding.
    Gone { peer: String },
}

impl BotEvent {
    fn from_frame(event: FrameEvent, at: Instant) -> BotEvent {
        match event {
            FrameEvent::Message(bytes) => BotEvent::Message { bytes, at },
            FrameEvent::Overlong { prefix, cap } => BotEvent::Overlong { prefix, cap, at },
            FrameEvent::Unterminated(bytes) => BotEvent::OutputClosed {
                partial: Some(bytes),
                at,
            },
        }
    }
}

/// How to start a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    pub program: String,
    pub args: Vec<String>,
    /// Its environment: the run's policy and the game's own variables.
    pub env: environment::BotEnv,
    /// The folder the bot runs in (`None`: protocheck's own). `match` and
    /// `tournament` run each bot in its own folder, as `grade` does.
    pub workdir: Option<std::path::PathBuf>,
}

impl BotCommand {
    /// The command that starts this bot: program, arguments, folder and
    /// environment. Every way of starting a bot goes through here.
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        if let Some(dir) = &self.workdir {
            command.current_dir(dir);
        }
        command.args(&self.args);
        self.env.apply(&mut command);
        command
    }

    /// The command line as a user would type it (for replay hints).
    pub fn display(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|w| shell_quote(w))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Quote a word for a POSIX shell only when it needs it.
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Limits that protect protocheck from the bot.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Longest message accepted (`io.line-too-long` beyond it).
    pub message_cap: usize,
    /// How much of stderr is kept for the report.
    pub stderr_keep: usize,
    /// Between SIGTERM and SIGKILL.
    pub kill_grace: Duration,
    /// Memory, CPU time and process count of the bot.
    pub resources: ResourceLimits,
    /// The sandbox the bot runs in.
    pub sandbox: sandbox::SandboxOptions,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            message_cap: 64 * 1024,
            stderr_keep: 4 * 1024,
            kill_grace: Duration::from_millis(300),
            resources: ResourceLimits::default(),
            sandbox: sandbox::SandboxOptions::default(),
        }
    }
}

/// Why a bot could not be started at all (exit status 2, not a verdict).
#[derive(Debug)]
pub struct SpawnError {
    pub program: String,
    pub error: std::io::Error,
}

impl std::fmt::Display for SpawnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hint = match self.error.kind() {
            std::io::ErrorKind::NotFound => {
                " (no such program: check the path, or use --bot-cmd for commands with arguments)"
            }
            std::io::ErrorKind::PermissionDenied => {
                " (permission denied: is the file executable? try chmod +x)"
            }
            _ => "",
        };
        write!(
            f,
            "cannot start bot `{}`: {}{hint}",
            self.program, self.error
        )
    }
}

impl std::error::Error for SpawnError {}

impl SpawnError {
    /// The bot was not started because protocheck is being stopped by a
    /// signal: no fault of the bot's.
    pub fn interrupted(&self) -> bool {
        process::is_interrupted_spawn(&self.error)
    }
}

/// The inode of a pipe end, to recognise it among the bot's descriptors.
fn pipe_inode(pipe: &impl std::os::fd::AsRawFd) -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let fd = pipe.as_raw_fd();
        std::fs::metadata(format!("/proc/self/fd/{fd}"))
            .ok()
            .map(|m| m.ino())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pipe;
        None
    }
}

/// How long a bot gets to leave by itself at end-of-input before SIGTERM.
const EOF_GRACE: Duration = Duration::from_millis(100);

/// The longest [`BotConnection::stderr_of_ended_bot`] waits for the end of
/// a gone bot's stderr (it comes at once unless the drain thread waits for
/// a CPU, or something of the bot's survived its group).
const STDERR_EOF_WAIT: Duration = Duration::from_secs(2);

/// A live connection to one bot process over its standard streams.
pub struct BotConnection {
    /// `None` with `--no-spawn` (a client someone else started).
    group: Option<ProcessGroup>,
    events: Receiver<BotEvent>,
    writes: Option<WriteQueue>,
    /// The bot's stdin pipe, for messages it takes at once (`None` for a
    /// TCP client: the writer thread writes everything).
    direct: Option<stream::PipeInput>,
    stderr: Arc<Mutex<StderrTail>>,
    progress: Arc<Progress>,
    idle: IdleProbe,
    /// The socket side of a TCP bot (listener, acceptor, stdin kept open).
    tcp: Option<tcp_connection::TcpSide>,
}

impl BotConnection {
    /// Start the bot with piped stdio, in its own process group.
    pub fn spawn(
        bot: &BotCommand,
        framer: Box<dyn Framer>,
        limits: &Limits,
    ) -> Result<BotConnection, SpawnError> {
        let spawn_error = |error| SpawnError {
            program: bot.program.clone(),
            error,
        };
        let mut command = bot.command();
        let confinement = sandbox::Confinement::prepare(&limits.sandbox, &mut command, None)
            .map_err(spawn_error)?;
        let (tx, events) = mpsc::sync_channel(stream::EVENT_QUEUE);
        let exit_tx: SyncSender<BotEvent> = tx.clone();
        let on_exit = move |status, at| {
            let _ = exit_tx.send(BotEvent::Exited { status, at });
        };
        let (group, pipes) = ProcessGroup::spawn(
            command,
            limits.kill_grace,
            limits.resources,
            confinement,
            on_exit,
        )
        .map_err(spawn_error)?;
        let pid = group.pid();
        let progress = Arc::new(Progress::default());
        let idle = IdleProbe::new(pid, pipe_inode(&pipes.stdin), Arc::clone(&progress));
        stream::spawn_reader(
            format!("bot-{pid}-out"),
            pipes.stdout,
            framer,
            tx.clone(),
            Arc::clone(&progress),
        );
        let (wtx, wrx) = mpsc::channel();
        let input = stream::PipeInput::new(pipes.stdin).map_err(|error| SpawnError {
            program: bot.program.clone(),
            error,
        })?;
        stream::spawn_writer(
            format!("bot-{pid}-in"),
            input.writer(),
            wrx,
            tx,
            Arc::clone(&progress),
        );
        let stderr = Arc::new(Mutex::new(StderrTail::new(limits.stderr_keep)));
        stream::spawn_stderr_drain(format!("bot-{pid}-err"), pipes.stderr, Arc::clone(&stderr));
        Ok(BotConnection {
            group: Some(group),
            events,
            writes: Some(wtx),
            direct: Some(input),
            stderr,
            progress,
            idle,
            tcp: None,
        })
    }

    /// The bot's main process id; `None` for a client protocheck did not
    /// start (`--no-spawn`).
    pub fn pid(&self) -> Option<i32> {
        self.group.as_ref().map(|g| g.pid())
    }

    /// Queue bytes for the bot; never blocks.
    pub fn send(&self, mut bytes: Vec<u8>) {
        let Some(w) = &self.writes else {
            return;
        };
        let len = bytes.len() as u64;
        // Nothing queued before it: as much as the pipe takes now goes
        // straight in, in order; the writer thread writes the rest.
        let progress = &self.progress;
        let now = match &self.direct {
            Some(pipe) if !self.writes_pending() => pipe.write_now(&bytes),
            _ => 0,
        };
        if now > 0 {
            progress.queued.fetch_add(now as u64, Ordering::SeqCst);
            progress.delivered(now as u64);
            if now == bytes.len() {
                return;
            }
            bytes.drain(..now);
        }
        let rest = len - now as u64;
        if w.send(WriteCommand::Bytes(bytes)).is_ok() {
            progress.queued.fetch_add(rest, Ordering::SeqCst);
        }
    }

    /// Whether the bot is provably idle right now (see [`idle`]); `None`
    /// where that cannot be told.
    pub fn idle_sample(&self) -> Option<idle::Sample> {
        self.idle.sample()
    }

    /// Close the bot's input (it reads EOF) after everything queued so far.
    pub fn close_input(&mut self) {
        if let Some(w) = self.writes.take() {
            let _ = w.send(WriteCommand::Close);
        }
    }

    /// The next event, waiting at most until `deadline`.
    pub fn recv_until(&self, deadline: Instant) -> Option<BotEvent> {
        let timeout = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(timeout) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Wait until the main process has ended or `deadline` passes.
    pub fn wait_exit(&self, deadline: Instant) -> Option<ExitStatus> {
        self.group.as_ref()?.wait_until(deadline)
    }

    /// The scheduler's counters of every task of the bot's process tree
    /// (see [`cpu_wait`]); `None` where they cannot be read, or for a
    /// client protocheck did not start.
    pub fn task_times(&self) -> Option<Vec<cpu_wait::TaskTimes>> {
        cpu_wait::sample(self.group.as_ref()?.pid())
    }

    /// Whether protocheck's reader of the bot's output is running or ready
    /// to run (it has not yet queued everything the bot wrote). False where
    /// this cannot be told.
    pub fn reader_busy(&self) -> bool {
        let tid = self
            .progress
            .reader_tid
            .load(std::sync::atomic::Ordering::SeqCst);
        tid > 0 && cpu_wait::own_thread_runnable(tid)
    }

    /// Whether protocheck's writer has bytes for the bot it has not yet
    /// written into the bot's input (on a busy machine the writer thread
    /// itself may wait for a CPU).
    pub fn writes_pending(&self) -> bool {
        use std::sync::atomic::Ordering;
        self.progress.queued.load(Ordering::SeqCst) != self.progress.written.load(Ordering::SeqCst)
    }

    /// When protocheck's writer last finished writing into the bot's
    /// input (`None`: nothing written yet).
    pub fn delivered_at(&self) -> Option<Instant> {
        self.progress.delivered_at.lock().ok().and_then(|at| *at)
    }

    /// The bot's virtual memory size in bytes (Linux: VmSize of its main
    /// process), if it can be read.
    pub fn virtual_memory(&self) -> Option<u64> {
        let pid = self.group.as_ref()?.pid();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }

    /// Total bytes written to stderr, and the kept tail.
    pub fn stderr(&self) -> (u64, String) {
        let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        (t.total, t.text())
    }

    /// As [`Self::stderr`], for a bot that is gone: once its drain has read
    /// to end-of-file. The last lines a bot wrote before it exited are
    /// still in the pipe when it is reaped, and a busy machine can keep the
    /// drain thread from them for a while; what they say (a refused read)
    /// must not depend on that. Bounded, for a pipe something else of the
    /// bot's still holds open.
    pub fn stderr_of_ended_bot(&self) -> (u64, String) {
        let deadline = Instant::now() + STDERR_EOF_WAIT;
        loop {
            {
                let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
                if t.complete() || Instant::now() >= deadline {
                    return (t.total, t.text());
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The resource limit the bot hit, if any: caught by the monitor (process
    /// count, CPU time) or read from how the bot ended (SIGXCPU, running out
    /// of address space). Meaningful once the bot has ended.
    pub fn limit_hit(&self) -> Option<LimitHit> {
        let group = self.group.as_ref()?;
        let watch = group.watch();
        if let Some(hit) = watch.hit() {
            return Some(hit);
        }
        let status = group.exit_status()?;
        let (_, tail) = self.stderr();
        guard::limit_from_exit(watch, status, &tail)
    }

    /// Kill the whole process group and reap it (idempotent).
    pub fn terminate(&mut self) -> Option<ExitStatus> {
        // Politely first: most bots leave by themselves at end-of-input.
        self.close_input();
        let status = match self.group.as_mut() {
            Some(group) => {
                group.wait_until(Instant::now() + EOF_GRACE);
                group.terminate()
            }
            None => None,
        };
        if let Some(tcp) = self.tcp.as_mut() {
            tcp.shut();
        }
        status
    }
}
