//! One bot's connection and what protocheck holds of its output: the
//! replies due from it, events read ahead, a piece that starts the next
//! reply, output kept from when nothing was due, and the meter of what it
//! wrote. A run holds one inbox per seated bot, so what one bot writes can
//! never be taken for another's.

use super::bounds::{OutputMeter, Overrun};
use crate::transport::{BotConnection, BotEvent};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How long an exit is held back for the output written before it.
const EXIT_DRAIN: Duration = Duration::from_millis(100);

pub(super) struct Inbox {
    pub(super) conn: BotConnection,
    /// What the bot wrote so far, against the flood and byte bounds.
    pub(super) meter: OutputMeter,
    /// Replies due, each with the time it became due (oldest first).
    pub(super) pending: VecDeque<Instant>,
    /// The bot's output reached end-of-file.
    pub(super) output_closed: bool,
    /// Events read ahead while an exit waited for the output to drain.
    pub(super) queued: VecDeque<BotEvent>,
    /// A piece that arrived after a complete reply and starts the next one.
    pub(super) carry: Option<(Vec<u8>, Instant)>,
    /// Output that arrived while no reply was due, kept as the next reply
    /// (games whose `Wire` says so).
    pub(super) early: VecDeque<(Vec<u8>, Instant)>,
    /// Replies completed so far.
    pub(super) replies_seen: usize,
    /// Something was written that no observation has followed yet.
    pub(super) unobserved_write: bool,
    /// When the last message was handed over (`send`): the time the
    /// replies it made due are stamped with.
    pub(super) last_send: Option<Instant>,
}

impl Inbox {
    pub(super) fn new(conn: BotConnection, max_output: u64) -> Inbox {
        Inbox {
            conn,
            meter: OutputMeter::new(max_output),
            pending: VecDeque::new(),
            output_closed: false,
            queued: VecDeque::new(),
            carry: None,
            early: VecDeque::new(),
            replies_seen: 0,
            unobserved_write: false,
            last_send: None,
        }
    }

    /// The next event, in the order the bot caused them; `Err` when what
    /// it wrote crossed an output bound. The exit of the main process is
    /// noticed by another thread than its output, so an exit can overtake
    /// the last lines the bot wrote before it: an exit is held back until
    /// the output has reached end-of-file (or 100 ms have passed, for a
    /// grandchild that keeps the pipe open).
    pub(super) fn next_event(&mut self, deadline: Instant) -> Result<Option<BotEvent>, Overrun> {
        if let Some(event) = self.queued.pop_front() {
            return Ok(Some(event));
        }
        let Some(event) = self.conn.recv_until(deadline) else {
            return Ok(None);
        };
        let read = match &event {
            BotEvent::Message { bytes, .. } => bytes.len(),
            BotEvent::Overlong { cap, .. } => cap + 1,
            _ => 0,
        };
        if let Some(overrun) = self.meter.read(read) {
            return Err(overrun);
        }
        if matches!(event, BotEvent::OutputClosed { .. }) {
            self.output_closed = true;
        }
        if !matches!(event, BotEvent::Exited { .. }) || self.output_closed {
            return Ok(Some(event));
        }
        let drain_until = Instant::now() + EXIT_DRAIN;
        while let Some(next) = self.conn.recv_until(drain_until) {
            let eof = matches!(next, BotEvent::OutputClosed { .. });
            self.queued.push_back(next);
            if eof {
                self.output_closed = true;
                break;
            }
        }
        self.queued.push_back(event);
        Ok(self.queued.pop_front())
    }

    /// Hand a message to the bot; `replies` replies become due from now.
    pub(super) fn send(&mut self, bytes: Vec<u8>, replies: usize) {
        // Stamped *before* the bytes are handed to the writer thread: the bot
        // cannot answer earlier, so a line read before this instant was
        // written before the reply was due (see `await_reply`).
        let now = Instant::now();
        self.unobserved_write = true;
        self.last_send = Some(now);
        self.conn.send(bytes);
        self.pending.extend(std::iter::repeat_n(now, replies));
    }

    /// When the bot could first read the message that made a reply due at
    /// `due` (see [`readable_from`]).
    pub(super) fn readable_from(&self, due: Instant) -> Instant {
        readable_from(
            due,
            self.last_send,
            self.conn.writes_pending(),
            self.conn.delivered_at(),
        )
    }

    /// Protocheck stops reading this bot: nothing more is due or kept.
    pub(super) fn drop_all(&mut self) {
        self.pending.clear();
        self.carry = None;
        self.queued.clear();
    }
}

/// When the bot could first read the message that made a reply due at
/// `due`: once protocheck's writer had written it into the bot's input, not
/// when protocheck queued it (a busy machine may keep protocheck's writer
/// waiting for a CPU, and a bot that has not drained its input makes the
/// writer wait; neither is the bot's time). Known for the last message
/// sent (`last_send`), once everything queued is written (`delivered_at` is
/// then that message's delivery); otherwise `due`, as before.
fn readable_from(
    due: Instant,
    last_send: Option<Instant>,
    writes_pending: bool,
    delivered_at: Option<Instant>,
) -> Instant {
    match delivered_at {
        Some(at) if last_send == Some(due) && !writes_pending => at.max(due),
        _ => due,
    }
}

#[cfg(test)]
mod tests {
    use super::readable_from;
    use std::time::{Duration, Instant};

    #[test]
    fn a_reply_is_timed_from_when_its_message_was_written_into_the_bots_input() {
        let due = Instant::now();
        let written = due + Duration::from_millis(700);
        // The writer thread wrote the message 700 ms after it was queued.
        assert_eq!(readable_from(due, Some(due), false, Some(written)), written);
        // Still being written: not known yet.
        assert_eq!(readable_from(due, Some(due), true, Some(written)), due);
        // A later message was sent: the last delivery is not this one's.
        let later = due + Duration::from_millis(5);
        assert_eq!(readable_from(due, Some(later), false, Some(written)), due);
        // Written at once (before the stamp's clock moved on): unchanged.
        assert_eq!(readable_from(due, Some(due), false, Some(due)), due);
        assert_eq!(readable_from(due, Some(due), false, None), due);
    }
}
