//! Event handling for a running scenario: reading what the bot does (output,
//! exit, end-of-file) outside and around due replies, and judging it.

use super::Run;
use super::bounds::Overrun;
use super::seat::ExitSeen;
use crate::games::Transport;
use crate::outcome::Direction;
use crate::shown::message_text;
use crate::transport::{BotEvent, ConnectionEvent, ExitStatus};
use std::time::{Duration, Instant};

/// How many connections that were not the bot's a transcript notes.
const STRANGERS_NOTED: u32 = 3;

impl Run<'_> {
    /// Something arrived while no reply was due.
    pub(super) fn idle_event(&mut self, event: BotEvent) {
        match event {
            BotEvent::Message { bytes, at } => self.unexpected_at(&bytes, at),
            BotEvent::Overlong { prefix, cap, .. } => {
                let shown = message_text(&prefix);
                self.record(Direction::Received, format!("{shown}… (over {cap} bytes)"));
                let v = self
                    .game
                    .line_too_long()
                    .violation(format!("the bot wrote a message longer than {cap} bytes"))
                    .with_actual(format!("{shown}…"));
                self.push(v);
                self.seats[self.at].inbox.pending.pop_front();
            }
            BotEvent::OutputClosed { partial, .. } => {
                self.settle_late_arrival(true);
                if let Some(p) = &partial {
                    self.record(
                        Direction::Received,
                        format!("{} (no line end)", message_text(p)),
                    );
                }
                self.note("the bot closed its output");
                self.bot_gone(None, partial.as_deref());
            }
            BotEvent::InputClosed { error, .. } => {
                self.note(format!("writing to the bot failed: {error}"));
                self.bot_gone(None, None);
            }
            BotEvent::Connection {
                event: ConnectionEvent::Connected { peer },
                at,
            } => {
                self.note(format!("the bot connected (from {peer})"));
                // A reply due from the start (the sign-up) is due from the
                // connection on.
                if self.seats[self.at].inbox.replies_seen == 0
                    && let Some(first) = self.seats[self.at].inbox.pending.front_mut()
                {
                    *first = at;
                }
            }
            BotEvent::Connection {
                event: ConnectionEvent::Stranger { .. } | ConnectionEvent::Gone { .. },
                ..
            } if self.seats[self.at].strangers >= STRANGERS_NOTED => {}
            BotEvent::Connection { event, .. } => {
                let never = matches!(event, ConnectionEvent::NeverConnected { .. });
                let mut suffix = "";
                if matches!(
                    event,
                    ConnectionEvent::Stranger { .. } | ConnectionEvent::Gone { .. }
                ) {
                    self.seats[self.at].strangers += 1;
                    if self.seats[self.at].strangers == STRANGERS_NOTED {
                        suffix = " (further connections that are not the bot's are closed without a note)";
                    }
                }
                self.note(match &event {
                    ConnectionEvent::NeverConnected { waited, exited } => match exited {
                        Some(status) => format!("the bot exited ({status}) without connecting"),
                        None => format!(
                            "the bot did not connect within {}",
                            humantime::format_duration(*waited)
                        ),
                    },
                    ConnectionEvent::Extra { peer } => {
                        format!("another connection (from {peer}) was closed")
                    }
                    ConnectionEvent::Stranger { peer, pid, program } => format!(
                        "a connection from {peer} was closed unplayed: it came from a process that is not the bot's (pid {pid}, `{program}`){suffix}"
                    ),
                    ConnectionEvent::Gone { peer } => format!(
                        "a connection from {peer} was closed unplayed: its other end was closed before protocheck could tell whose it was{suffix}"
                    ),
                    ConnectionEvent::Connected { .. } => String::new(),
                });
                if let Some(v) = self.session.connection(&event) {
                    if never {
                        self.push_ending(v);
                    } else {
                        self.push(v);
                    }
                }
                if never {
                    self.seats[self.at].life = self.seats[self.at].life.went_away();
                    self.seats[self.at].inbox.pending.clear();
                }
            }
            BotEvent::Exited { status, .. } => {
                self.settle_late_arrival(true);
                // `expect_exit` may have seen the status already.
                if self.seats[self.at].exit.status().is_none() {
                    self.note(format!("the bot exited: {status}"));
                }
                self.seats[self.at].exit = self.seats[self.at].exit.seen(status);
                if self.session.is_over() {
                    self.judge_exit(status);
                } else {
                    self.bot_gone(Some(status), None);
                }
            }
        }
    }

    /// The next event from the bot at this seat, in the order the bot
    /// caused them (see `Inbox::next_event`); `None` once the bot was
    /// stopped, or when it crosses an output bound now.
    pub(super) fn next_event(&mut self, deadline: Instant) -> Option<BotEvent> {
        if self.stopped() {
            return None;
        }
        match self.seats[self.at].inbox.next_event(deadline) {
            Ok(event) => event,
            Err(overrun) => {
                self.stop(overrun);
                None
            }
        }
    }

    fn bot_gone(&mut self, exit: Option<ExitStatus>, partial: Option<&[u8]>) {
        if self.gone() {
            return;
        }
        if self.session.is_over() && partial.is_none() {
            return; // leaving after the game is fine; the exit is judged separately
        }
        self.seats[self.at].life = self.seats[self.at].life.went_away();
        self.seats[self.at].inbox.pending.clear();
        // EOF on stdout usually comes just before the exit status: give it a
        // moment, so the report can say how the bot ended (and by which signal).
        let exit = exit.or(self.seats[self.at].exit.status()).or_else(|| {
            self.seats[self.at]
                .inbox
                .conn
                .wait_exit(Instant::now() + Duration::from_millis(200))
        });
        let ending = self.session.closed(exit, partial);
        // A bot protocheck killed for going over a limit (or that died of
        // one, e.g. SIGXFSZ) did not crash by itself: `release` reports the
        // limit as the finding, and a crash beside it would lead the report
        // (and a match's forfeit) with the wrong rule.
        if let Some(v) = ending
            && self.seats[self.at].inbox.conn.limit_hit().is_none()
        {
            self.push_ending(v);
        }
    }

    fn judge_exit(&mut self, status: ExitStatus) {
        if self.seats[self.at].exit.judged() {
            return;
        }
        self.seats[self.at].exit = ExitSeen::Judged(status);
        for v in self.session.exited_after_end(status) {
            self.push_ending(v);
        }
    }

    /// The game is over (or aborted): the bot must exit within the grace.
    pub(super) fn expect_exit(&mut self) {
        if self.game.facts().wire.transport == Transport::Tcp && !self.gone() {
            // Over TCP the end of the game is the server closing the
            // connection; there is no game-over message.
            self.note("protocheck closed the connection");
            self.mark_ended("closed the connection");
            self.session.input_closed();
            self.seats[self.at].inbox.conn.close_input();
        }
        let grace = self.seats[self.at].time.exit_grace;
        let mut deadline = Instant::now() + grace;
        // The grace is the bot's own time, as a listening window is: a bot
        // the machine keeps from running cannot exit, and on a loaded
        // grading machine it would be told it did not.
        let mut grace_end = super::timing::WindowEnd::open(grace);
        grace_end.baseline(&self.seats[self.at].inbox.conn);
        while !self.seats[self.at].exit.judged() {
            // The exit is taken from the event stream, never peeked at: the
            // stream holds it back until the output before it has been read,
            // so a last line written just before exiting is judged too.
            if let Some(status) = self.seats[self.at].exit.status() {
                self.judge_exit(status);
                break;
            }
            match self.next_event(deadline) {
                Some(BotEvent::Exited { status, .. }) => {
                    self.settle_late_arrival(true);
                    self.seats[self.at].exit = self.seats[self.at].exit.seen(status);
                    self.note(format!("the bot exited: {status}"));
                    // It left within the grace: the rule its staying would break held.
                    let stays = self
                        .session
                        .no_exit(self.seats[self.at].time.exit_grace)
                        .rule;
                    self.passed(&[stays]);
                    self.judge_exit(status);
                }
                Some(BotEvent::OutputClosed { partial: None, .. }) => {
                    self.settle_late_arrival(true);
                }
                Some(BotEvent::InputClosed { .. }) => {}
                Some(other) => {
                    self.idle_event(other);
                    if self.stopped() {
                        return;
                    }
                }
                None if self.stopped() => return,
                None => {
                    if let Some(more) = grace_end.extension(&self.seats[self.at].inbox.conn) {
                        deadline = Instant::now() + more;
                        continue;
                    }
                    let grace = humantime::format_duration(self.seats[self.at].time.exit_grace);
                    self.note(format!("the bot did not exit within {grace}"));
                    let v = self.session.no_exit(self.seats[self.at].time.exit_grace);
                    self.push(v);
                    return;
                }
            }
        }
    }

    /// A piece held back for a next reply that never became due is output
    /// nobody asked for.
    pub(super) fn flush_carry(&mut self) {
        if self.seats[self.at].inbox.pending.is_empty()
            && let Some((bytes, _)) = self.seats[self.at].inbox.carry.take()
        {
            self.unexpected(&bytes);
        }
    }

    pub(super) fn unexpected(&mut self, bytes: &[u8]) {
        self.unexpected_at(bytes, Instant::now());
    }

    /// Output nobody asked for, read at `at`.
    pub(super) fn unexpected_at(&mut self, bytes: &[u8], at: Instant) {
        self.record(Direction::Received, message_text(bytes));
        if let Some(overrun) = self.seats[self.at].inbox.meter.unsolicited() {
            self.stop(overrun);
            return;
        }
        // Also when the game ended by protocheck closing the input without a
        // failure (a robustness scenario's timeout is a warning).
        if self.late_reply_arrived(bytes, at) {
            return;
        }
        if self.seats[self.at].time.flushed_late {
            return; // more of the same buffer
        }
        if let Some(v) = self.session.unexpected(bytes) {
            self.push(v);
        }
        if self.game.facts().wire.early_output_is_next_reply && !self.finishing {
            self.seats[self.at]
                .inbox
                .early
                .push_back((bytes.to_vec(), Instant::now()));
        }
    }

    /// The bot crossed one of protocheck's output bounds: a verdict, and the
    /// scenario ends here (`finish` kills the bot without reading on).
    fn stop(&mut self, overrun: Overrun) {
        if self.stopped() {
            return;
        }
        let v = self.seats[self.at].inbox.meter.violation(overrun);
        self.note(format!("{}: {}", v.rule, v.message));
        self.push(v);
        let seat = &mut self.seats[self.at];
        seat.life = seat.life.stopped();
        seat.inbox.drop_all();
    }

    /// The game's virtual-memory limit (Quoridor's referee forfeits engines
    /// over 950 MB), sampled from /proc after each reply; reported once.
    pub(super) fn check_memory(&mut self) {
        let Some((limit, rule)) = self.game.facts().memory_limit else {
            return;
        };
        if self.seats[self.at].memory_reported {
            return;
        }
        if let Some(size) = self.seats[self.at].inbox.conn.virtual_memory()
            && size > limit
        {
            self.seats[self.at].memory_reported = true;
            let v = rule.violation(format!(
                "the bot's virtual memory is {} MB, over the limit of {} MB",
                size / 1_000_000,
                limit / 1_000_000
            ));
            self.push(v);
        }
    }
}
