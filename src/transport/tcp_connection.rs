//! A bot reached over TCP (Evolution): protocheck listens on 127.0.0.1,
//! starts the bot with the port (`PROTOCHECK_PORT`, `{port}` in its
//! arguments) under the same process handling as a piped bot (process group,
//! resource limits, guard tag, kill on every path), accepts one connection
//! within the connect deadline, and then reads and writes the socket with the
//! same reader and writer threads as a pipe. The controller sees the same
//! [`BotConnection`] and [`BotEvent`]s; only connection-level news is new
//! ([`ConnectionEvent`]). The bot's own stdout and stderr are drained into
//! the kept tail (for the report); its stdin stays open and unused.

use super::idle::{IdleProbe, Progress};
use super::stream::{self, StderrTail, WriteCommand};
use super::tcp::LoopbackListener;
use super::{
    BotCommand, BotConnection, BotEvent, ConnectionEvent, ExitStatus, Limits, ProcessGroup,
    SpawnError,
};
use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::process::ChildStdin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The environment variable that tells the bot protocheck's port.
pub const PORT_VAR: &str = "PROTOCHECK_PORT";
/// The placeholder in the bot's arguments replaced by the port.
pub const PORT_PLACEHOLDER: &str = "{port}";

/// How long the acceptor sleeps between looks at the bot's exit and at the
/// stop flag.
const ACCEPT_SLICE: Duration = Duration::from_millis(10);
/// Past this many times the connect limit in wall time, a client that has
/// not connected fails however busy the machine was (as a reply's
/// backstop, `controller::timing`).
const CONNECT_BACKSTOP: u32 = 10;

/// What a TCP session needs besides the bot's command line.
pub struct TcpSetup {
    pub listener: LoopbackListener,
    /// From the spawn (or, with `--no-spawn`, from now) to the connection.
    pub connect_within: Duration,
    /// `false` (`--no-spawn`): no process; wait for a client someone else
    /// starts. Its closing the connection then stands for its exit.
    pub spawn: bool,
    /// A write that blocks longer (a client that never reads) fails.
    pub write_timeout: Duration,
    /// The run's stop: a stopped protocheck waits for no client.
    pub run_stop: crate::pool::StopToken,
}

/// The socket side of a [`BotConnection`].
pub(super) struct TcpSide {
    stop: Arc<AtomicBool>,
    socket: Arc<Mutex<Option<TcpStream>>>,
    /// Held so the bot never reads end-of-file on its stdin.
    _stdin: Option<ChildStdin>,
    /// The acceptor owns the listener: joined on shut, so the port is free
    /// again when the connection is (a fixed `--port`, scenario after scenario).
    acceptor: Option<std::thread::JoinHandle<()>>,
}

impl TcpSide {
    /// Stop accepting and close the connection both ways.
    pub(super) fn shut(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(s) = self.socket.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = s.shutdown(Shutdown::Both);
        }
        if let Some(handle) = self.acceptor.take() {
            let _ = handle.join();
        }
    }
}

impl Drop for TcpSide {
    fn drop(&mut self) {
        self.shut();
    }
}

/// The writer's end of the socket: closing the bot's "input" shuts down our
/// sending direction, which the client reads as end of stream.
struct SocketSink(TcpStream);

impl Write for SocketSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl Drop for SocketSink {
    fn drop(&mut self) {
        let _ = self.0.shutdown(Shutdown::Write);
    }
}

/// The bot's arguments with `{port}` replaced.
pub fn with_port(bot: &BotCommand, port: u16) -> BotCommand {
    let mut bot = bot.clone();
    for a in &mut bot.args {
        *a = a.replace(PORT_PLACEHOLDER, &port.to_string());
    }
    bot.env.game.push((PORT_VAR.to_string(), port.to_string()));
    bot
}

impl BotConnection {
    /// Listen, start the bot (unless `--no-spawn`) and accept its connection
    /// in the background. `Err` only when the bot cannot be started at all.
    pub fn spawn_tcp(
        bot: &BotCommand,
        framer: Box<dyn super::framing::Framer>,
        limits: &Limits,
        setup: TcpSetup,
    ) -> Result<BotConnection, SpawnError> {
        let port = setup.listener.port().map_err(|error| SpawnError {
            program: bot.program.clone(),
            error,
        })?;
        let (tx, events) = mpsc::sync_channel(stream::EVENT_QUEUE);
        let stderr = Arc::new(Mutex::new(StderrTail::new(limits.stderr_keep)));
        let exited: Arc<Mutex<Option<ExitStatus>>> = Arc::default();
        let progress = Arc::new(Progress::default());
        let (group, stdin, pid) = if setup.spawn {
            let bot = with_port(bot, port);
            let mut command = bot.command();
            // The one port it may connect to is this scenario's.
            let confinement =
                super::sandbox::Confinement::prepare(&limits.sandbox, &mut command, Some(port))
                    .map_err(|error| SpawnError {
                        program: bot.program.clone(),
                        error,
                    })?;
            let exit_tx: SyncSender<BotEvent> = tx.clone();
            let cell = Arc::clone(&exited);
            let on_exit = move |status, at| {
                *cell.lock().unwrap_or_else(|e| e.into_inner()) = Some(status);
                let _ = exit_tx.send(BotEvent::Exited { status, at });
            };
            let (group, pipes) = ProcessGroup::spawn(
                command,
                limits.kill_grace,
                limits.resources,
                confinement,
                on_exit,
            )
            .map_err(|error| SpawnError {
                program: bot.program.clone(),
                error,
            })?;
            let pid = group.pid();
            stream::spawn_stderr_drain(format!("bot-{pid}-out"), pipes.stdout, stderr.clone());
            stream::spawn_stderr_drain(format!("bot-{pid}-err"), pipes.stderr, stderr.clone());
            (Some(group), Some(pipes.stdin), pid)
        } else {
            eprintln!(
                "protocheck: waiting for a client on 127.0.0.1:{port} (start it with PROTOCHECK_PORT={port})"
            );
            (None, None, 0)
        };
        let (wtx, wrx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let socket: Arc<Mutex<Option<TcpStream>>> = Arc::default();
        let started = Instant::now();
        let acceptor = Acceptor {
            listener: setup.listener,
            pid,
            started,
            deadline: started + setup.connect_within,
            waited: setup.connect_within,
            write_timeout: setup.write_timeout,
            eof_is_exit: !setup.spawn,
            exited,
            run_stop: setup.run_stop,
            stop: Arc::clone(&stop),
            socket: Arc::clone(&socket),
            events: tx,
            progress: Arc::clone(&progress),
        };
        let acceptor = std::thread::Builder::new()
            .name(format!("bot-{pid}-accept"))
            .spawn(move || acceptor.run(framer, wrx))
            .map_err(|error| SpawnError {
                program: bot.program.clone(),
                error,
            })?;
        Ok(BotConnection {
            group,
            events,
            writes: Some(wtx),
            stderr,
            idle: IdleProbe::new(pid, None, Arc::clone(&progress)),
            progress,
            direct: None,
            tcp: Some(TcpSide {
                stop,
                socket,
                _stdin: stdin,
                acceptor: Some(acceptor),
            }),
        })
    }
}

struct Acceptor {
    listener: LoopbackListener,
    /// The bot's process (0 with `--no-spawn`: none to look at).
    pid: i32,
    started: Instant,
    /// When the connect limit is looked at next: its wall-clock end at
    /// first, later what the bot's own time leaves of it.
    deadline: Instant,
    waited: Duration,
    write_timeout: Duration,
    eof_is_exit: bool,
    exited: Arc<Mutex<Option<ExitStatus>>>,
    run_stop: crate::pool::StopToken,
    stop: Arc<AtomicBool>,
    socket: Arc<Mutex<Option<TcpStream>>>,
    events: SyncSender<BotEvent>,
    progress: Arc<Progress>,
}

impl Acceptor {
    fn exit_status(&self) -> Option<ExitStatus> {
        *self.exited.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the bot has had its time to connect. Like a reply, the
    /// connect limit is judged in the bot's own time: on a loaded machine
    /// a client whose runtime takes 20 s of wall time to load for 2 s of
    /// CPU (its tasks waiting in the run queue) must not fail for it, so
    /// the time its busiest task waited for a CPU is added, up to
    /// [`CONNECT_BACKSTOP`] times the limit. Where that cannot be measured
    /// (`--no-spawn`, another OS) the wall clock decides.
    fn connect_limit_reached(&mut self) -> bool {
        let now = Instant::now();
        if now < self.deadline {
            return false;
        }
        let limit = self.waited;
        let wall = now - self.started;
        let backstop = limit * CONNECT_BACKSTOP;
        if wall >= backstop || self.pid <= 0 {
            return true;
        }
        let Some(tasks) = super::cpu_wait::sample(self.pid) else {
            return true;
        };
        let waited = super::cpu_wait::busiest_wait(tasks.iter().map(|t| (t.ran_ns, t.waited_ns)));
        let own = wall.saturating_sub(waited);
        if own >= limit {
            return true;
        }
        let left = (limit - own).max(ACCEPT_SLICE);
        self.deadline = (now + left).min(self.started + backstop);
        false
    }

    /// Closes a connection that a process other than the bot's made, or
    /// that was closed before it could be told whose it was (see
    /// [`super::peer`]), and says so; whether it was one.
    fn refused_stranger(&self, stream: &TcpStream, peer: std::net::SocketAddr) -> bool {
        let Ok(port) = self.listener.port() else {
            return false;
        };
        let event = match super::peer::who_connected(self.pid, peer, port) {
            super::peer::Peer::Bot | super::peer::Peer::Unknown => return false,
            super::peer::Peer::Stranger { pid, program } => ConnectionEvent::Stranger {
                peer: peer.to_string(),
                pid,
                program,
            },
            super::peer::Peer::Gone => ConnectionEvent::Gone {
                peer: peer.to_string(),
            },
        };
        let _ = stream.shutdown(Shutdown::Both);
        let _ = self.events.send(BotEvent::Connection {
            event,
            at: Instant::now(),
        });
        true
    }

    fn run(mut self, framer: Box<dyn super::framing::Framer>, writes: Receiver<WriteCommand>) {
        let first = loop {
            if self.stop.load(Ordering::SeqCst) {
                return;
            }
            let now = Instant::now();
            let slice = (now + ACCEPT_SLICE).min(self.deadline);
            match self.listener.accept_until(slice) {
                // A stranger's connection is closed, and the bot is still
                // held to its connect limit.
                Ok(Some((stream, peer))) if !self.refused_stranger(&stream, peer) => {
                    let _ = self.events.send(BotEvent::Connection {
                        event: ConnectionEvent::Connected {
                            peer: peer.to_string(),
                        },
                        at: Instant::now(),
                    });
                    break Some(stream);
                }
                Ok(Some(_)) => {}
                Ok(None) => {}
                Err(_) => break None,
            }
            // A bot that ended cannot connect any more (a connection it made
            // just before exiting is still accepted above). A stopped
            // protocheck waits for nobody (a --no-spawn client has no
            // process to kill).
            if self.exit_status().is_some()
                || self.connect_limit_reached()
                || self.run_stop.is_stopped()
            {
                break None;
            }
        };
        let Some(stream) = first else {
            let _ = self.events.send(BotEvent::Connection {
                event: ConnectionEvent::NeverConnected {
                    waited: self.waited,
                    exited: self.exit_status(),
                },
                at: Instant::now(),
            });
            let _ = self.events.send(BotEvent::OutputClosed {
                partial: None,
                at: Instant::now(),
            });
            return;
        };
        if self.start_streams(stream, framer, writes).is_err() {
            let _ = self.events.send(BotEvent::OutputClosed {
                partial: None,
                at: Instant::now(),
            });
            return;
        }
        // One connection is played; later ones are reported and closed.
        while !self.stop.load(Ordering::SeqCst) {
            let slice = Instant::now() + Duration::from_millis(50);
            match self.listener.accept_until(slice) {
                Ok(Some((extra, peer))) => {
                    if self.refused_stranger(&extra, peer) {
                        continue;
                    }
                    let _ = extra.shutdown(Shutdown::Both);
                    let _ = self.events.send(BotEvent::Connection {
                        event: ConnectionEvent::Extra {
                            peer: peer.to_string(),
                        },
                        at: Instant::now(),
                    });
                }
                Ok(None) => {}
                Err(_) => return,
            }
        }
    }

    fn start_streams(
        &self,
        stream: TcpStream,
        framer: Box<dyn super::framing::Framer>,
        writes: Receiver<WriteCommand>,
    ) -> std::io::Result<()> {
        stream.set_write_timeout(Some(self.write_timeout))?;
        let read_half = stream.try_clone()?;
        let write_half = stream.try_clone()?;
        *self.socket.lock().unwrap_or_else(|e| e.into_inner()) = Some(stream);
        let name = format!("bot-tcp-{}", read_half.peer_addr()?.port());
        let events = if self.eof_is_exit {
            forward_eof_as_exit(self.events.clone())
        } else {
            self.events.clone()
        };
        stream::spawn_reader(
            format!("{name}-read"),
            read_half,
            framer,
            events,
            Arc::clone(&self.progress),
        );
        stream::spawn_writer(
            format!("{name}-write"),
            SocketSink(write_half),
            writes,
            self.events.clone(),
            Arc::clone(&self.progress),
        );
        Ok(())
    }
}

/// With `--no-spawn` there is no process to wait for: the client closing its
/// connection stands for its exit (status 0).
fn forward_eof_as_exit(to: SyncSender<BotEvent>) -> SyncSender<BotEvent> {
    let (tx, rx) = mpsc::sync_channel::<BotEvent>(stream::EVENT_QUEUE);
    let body = move || {
        for event in rx {
            let eof = matches!(event, BotEvent::OutputClosed { .. });
            if to.send(event).is_err() {
                return;
            }
            if eof {
                let _ = to.send(BotEvent::Exited {
                    status: ExitStatus::Code(0),
                    at: Instant::now(),
                });
                return;
            }
        }
    };
    let _ = std::thread::Builder::new()
        .name("bot-tcp-eof".into())
        .spawn(body);
    tx
}
