//! Waiting for a due reply: assembling it piece by piece as the game says
//! (with the reply deadline, a game's grace for replies that may go on, and
//! the idle proof that ends both early), then judging it.

use super::seat::{LateCause, LateReply};
use super::timing::BotClock;
use super::{
    EXPECT_MATCHES, EXPECT_REPLY, MAX_REPLY_BYTES, MAX_REPLY_PIECES, Run, ScriptFault, pace,
};
use crate::games::Assembly;
use crate::outcome::Direction;
use crate::scenario::Expect;
use crate::shown::message_text;
use crate::transport::BotEvent;
use crate::verdict::{ReplyTiming, Violation};
use std::time::{Duration, Instant};

/// How long a due reply may still take to arrive once the bot is proved
/// idle, before it is declared missing (a margin against a look that raced
/// the bot's last write; it costs only bots that never answer).
const LAST_CALL: Duration = Duration::from_millis(10);

/// One wait for the oldest due reply: what has arrived of it so far, and
/// the clocks that end the wait.
struct ReplyWait {
    /// When the reply became due.
    since: Instant,
    limit: Duration,
    deadline: Instant,
    reply: Vec<u8>,
    pieces: usize,
    /// When the last piece of the reply arrived.
    last_at: Instant,
    /// Set while a complete reply waits to see whether more belongs to it.
    grace_until: Option<Instant>,
    /// A bot proved idle while its reply is due will never send it.
    watch: pace::IdleWatch,
    /// How long after it became due the bot was proved idle.
    idle_after: Option<Duration>,
    /// The bot's own time, which the deadline is judged by.
    clock: BotClock,
}

impl ReplyWait {
    /// Why the reply did not come, as far as the wait could see.
    fn cause(&self) -> LateCause {
        match self.idle_after {
            Some(_) => LateCause::Blocked,
            None if self.watch.can_tell() => LateCause::Busy {
                computing: self.clock.computing(),
            },
            None if self.clock.computing() => LateCause::Busy { computing: true },
            None => LateCause::Unknown,
        }
    }
}

/// Whether the wait goes on after what just happened.
enum Flow {
    Wait,
    Done,
}

impl Run<'_> {
    /// Wait for the oldest due reply, assemble it piece by piece as the
    /// game says, and judge it.
    pub(super) fn await_reply(&mut self, expect: &Expect) -> Result<(), ScriptFault> {
        let mut wait = self.start_wait();
        loop {
            // Output kept from when nothing was due is this reply's start
            // (already reported as early by `unexpected`).
            let inbox = &mut self.seats[self.at].inbox;
            let kept = inbox.carry.is_none() && !inbox.early.is_empty();
            let held = inbox.carry.take().or_else(|| inbox.early.pop_front());
            let next = match held {
                Some((bytes, at)) => Some(BotEvent::Message { bytes, at }),
                None => self.wait_for_event(&mut wait),
            };
            let flow = match next {
                None => self.nothing_came(&mut wait, expect)?,
                Some(event) => self.take_event(&mut wait, event, kept, expect)?,
            };
            if let Flow::Done = flow {
                return Ok(());
            }
        }
    }

    fn start_wait(&mut self) -> ReplyWait {
        let seat = &mut self.seats[self.at];
        let since = *seat.inbox.pending.front().expect("a reply is due");
        seat.inbox.unobserved_write = false;
        let limit = if seat.inbox.replies_seen == 0 {
            seat.time.startup_timeout
        } else {
            seat.time.timeout
        };
        ReplyWait {
            since,
            limit,
            deadline: since + limit,
            reply: Vec::new(),
            pieces: 0,
            last_at: since,
            grace_until: None,
            watch: pace::IdleWatch::for_reply(true),
            idle_after: None,
            clock: BotClock::new(since),
        }
    }

    /// The next event before the deadline (or the end of a grace); `None`
    /// at the deadline, or once the bot is proved idle.
    fn wait_for_event(&mut self, w: &mut ReplyWait) -> Option<BotEvent> {
        let until = w.grace_until.map_or(w.deadline, |g| g.min(w.deadline));
        let mut next = None;
        while Instant::now() < until {
            next = self.next_event(w.clock.wake(w.watch.wake(until)));
            if next.is_some() {
                w.watch.saw_activity();
                break;
            }
            let conn = &self.seats[self.at].inbox.conn;
            w.clock.tick(conn);
            if w.watch.proved(conn) {
                // What the bot wrote before going idle is queued by now: a
                // reply that came after the last look is a reply, not
                // idleness. In a grace (a reply that may go on), an idle bot
                // has ended it: it cannot write more until protocheck does.
                // A due reply gets a last moment to arrive before it is
                // declared missing.
                let last = if w.grace_until.is_some() {
                    Duration::ZERO
                } else {
                    LAST_CALL
                };
                next = self.next_event(Instant::now() + last);
                if next.is_none() {
                    w.idle_after = Some(w.since.elapsed());
                }
                break;
            }
        }
        next
    }

    /// Nothing came: a grace ended (the reply is complete), the machine
    /// kept the bot from its time (wait on), or the reply is missing.
    fn nothing_came(&mut self, w: &mut ReplyWait, expect: &Expect) -> Result<Flow, ScriptFault> {
        if self.stopped() {
            return Ok(Flow::Done);
        }
        if w.grace_until.is_some() {
            self.complete_reply(&w.reply, expect, w.since, w.last_at, &mut w.clock)?;
            return Ok(Flow::Done);
        }
        let inbox = &self.seats[self.at].inbox;
        // The bot's time runs from when it could read the message.
        let wall = inbox.readable_from(w.since).elapsed();
        if w.idle_after.is_none()
            && let Some(more) = w.clock.time_left(&inbox.conn, wall, w.limit)
        {
            // The bot's own time has not reached the limit: the machine kept
            // it waiting for a CPU.
            w.deadline = Instant::now() + more;
            return Ok(Flow::Wait);
        }
        self.reply_missing(w);
        Ok(Flow::Done)
    }

    /// The reply did not come in time: one finding, and what is known of
    /// why, in case the reply arrives while protocheck ends the session.
    fn reply_missing(&mut self, w: &mut ReplyWait) {
        let readable = self.seats[self.at].inbox.readable_from(w.since);
        let timing = w.clock.timing(readable.elapsed(), w.limit);
        self.seats[self.at].inbox.pending.pop_front();
        if !w.reply.is_empty() {
            self.record(
                Direction::Received,
                format!("{} (incomplete)", message_text(&w.reply)),
            );
        }
        let cause = w.cause();
        let v = self.missing_reply_finding(w.limit, w.idle_after, timing);
        let mut v = self.silence_finding(v, &cause);
        let clock = std::mem::replace(&mut w.clock, BotClock::new(w.since));
        self.seats[self.at].time.late = Some(LateReply {
            cause,
            due: readable,
            limit: w.limit,
            clock,
            wait_at_end: None,
        });
        if v.actual.is_none() {
            v.actual = Some(format!(
                "(no reply within {})",
                humantime::format_duration(w.limit)
            ));
        }
        // Remembered only if kept, so a late flush rewords this finding and
        // never another one.
        let index = self.ledger.findings.kept_len();
        self.push_ending(v);
        if self.ledger.findings.kept_len() > index {
            self.seats[self.at].time.timed_out_at = Some(index);
        }
    }

    /// The game's finding for a missing reply, worded by what protocheck
    /// saw: a bot proved blocked on its input, or the time it took.
    fn missing_reply_finding(
        &mut self,
        limit: Duration,
        idle_after: Option<Duration>,
        timing: ReplyTiming,
    ) -> Violation {
        let mut v = self.session.timed_out(limit);
        if let Some(after) = idle_after {
            let after = humantime::format_duration(Duration::from_millis(after.as_millis() as u64));
            self.note(format!(
                "the bot is blocked reading its input ({after} after the message): it will never answer"
            ));
            v.message = format!(
                "no reply: the bot is blocked reading its input. It has read everything protocheck sent and waits for more, so it will never answer (found after {after}, instead of waiting out {}). Does it wait for a message that never comes, or expect a different one? Or did it write the reply without flushing its output (then the reply is still in its buffer)?",
                humantime::format_duration(limit)
            );
        } else {
            self.note(format!(
                "no reply within {}: {}",
                humantime::format_duration(limit),
                timing.describe()
            ));
            v.message = format!("{}; waited {}", v.message, timing.describe());
            v = v.with_timing(timing);
        }
        v
    }

    /// Something arrived while the reply is due.
    fn take_event(
        &mut self,
        w: &mut ReplyWait,
        event: BotEvent,
        kept: bool,
        expect: &Expect,
    ) -> Result<Flow, ScriptFault> {
        match event {
            // Read before the message that made the reply due was even
            // written: the bot sent it out of turn.
            BotEvent::Message { bytes, at } if at < w.since && w.reply.is_empty() && !kept => {
                self.unexpected(&bytes);
                if self.has_failure() {
                    self.seats[self.at].inbox.pending.clear();
                    return Ok(Flow::Done);
                }
                Ok(Flow::Wait)
            }
            BotEvent::Message { bytes, .. }
                if w.pieces >= MAX_REPLY_PIECES
                    || w.reply.len() + bytes.len() > MAX_REPLY_BYTES =>
            {
                self.reply_never_ended(w);
                Ok(Flow::Done)
            }
            BotEvent::Message { bytes, at } => self.reply_piece(w, bytes, at, expect),
            other => self.event_while_due(w, other, expect),
        }
    }

    /// A reply grew past protocheck's bounds without ending.
    fn reply_never_ended(&mut self, w: &ReplyWait) {
        self.seats[self.at].inbox.pending.pop_front();
        let pieces = w.pieces;
        self.record(
            Direction::Received,
            format!(
                "{}… ({pieces} lines, never ended)",
                message_text(&w.reply[..w.reply.len().min(120)])
            ),
        );
        let v = self.game.line_too_long().violation(format!(
            "a reply grew past {MAX_REPLY_PIECES} lines or {MAX_REPLY_BYTES} bytes without ending"
        ));
        self.push(v);
    }

    /// A piece of the reply: the game says whether it completes it.
    fn reply_piece(
        &mut self,
        w: &mut ReplyWait,
        bytes: Vec<u8>,
        at: Instant,
        expect: &Expect,
    ) -> Result<Flow, ScriptFault> {
        match self.session.reply_part(&w.reply, &bytes) {
            Assembly::StartsNext => {
                self.seats[self.at].inbox.carry = Some((bytes, at));
                self.complete_reply(&w.reply, expect, w.since, w.last_at, &mut w.clock)?;
                return Ok(Flow::Done);
            }
            Assembly::Complete => {
                w.reply.extend_from_slice(&bytes);
                self.complete_reply(&w.reply, expect, w.since, at, &mut w.clock)?;
                return Ok(Flow::Done);
            }
            Assembly::CompleteUnlessMore(grace) => {
                w.grace_until = Some(Instant::now() + grace);
                // Look soon: an idle bot ends the grace at once.
                w.watch = pace::IdleWatch::for_listening(true);
            }
            Assembly::More => w.grace_until = None,
        }
        w.pieces += 1;
        w.reply.extend_from_slice(&bytes);
        w.last_at = at;
        Ok(Flow::Wait)
    }

    /// Not a message (an exit, end of output, a connection) while the
    /// reply is due.
    fn event_while_due(
        &mut self,
        w: &mut ReplyWait,
        event: BotEvent,
        expect: &Expect,
    ) -> Result<Flow, ScriptFault> {
        if !w.reply.is_empty() && w.grace_until.is_some() {
            // The reply was complete; judge it before the exit.
            self.complete_reply(&w.reply, expect, w.since, w.last_at, &mut w.clock)?;
            w.reply.clear();
            w.grace_until = None;
        }
        self.idle_event(event);
        if self.gone() || self.has_failure() {
            self.seats[self.at].inbox.pending.clear();
            return Ok(Flow::Done);
        }
        let replies_seen = self.seats[self.at].inbox.replies_seen;
        match self.seats[self.at].inbox.pending.front() {
            // Re-stamped: a TCP bot connected, and the reply due from the
            // start is due from now on.
            Some(&front) if front != w.since && w.reply.is_empty() && replies_seen == 0 => {
                w.since = front;
                w.deadline = w.since + w.limit;
                // The bot's own time counts from the connection too.
                w.clock = BotClock::new(front);
                Ok(Flow::Wait)
            }
            Some(&front) if front == w.since => Ok(Flow::Wait),
            _ => Ok(Flow::Done),
        }
    }

    fn complete_reply(
        &mut self,
        reply: &[u8],
        expect: &Expect,
        since: Instant,
        at: Instant,
        clock: &mut BotClock,
    ) -> Result<(), ScriptFault> {
        self.seats[self.at].inbox.pending.pop_front();
        self.seats[self.at].inbox.replies_seen += 1;
        let text = message_text(reply);
        self.record(Direction::Received, text.clone());
        // From when the bot could read the message, not when it was queued.
        let readable = self.seats[self.at].inbox.readable_from(since);
        let waited = at.saturating_duration_since(readable);
        // The first reply includes the bot's start-up: not its pace.
        if self.seats[self.at].inbox.replies_seen > 1 {
            self.seats[self.at].time.slowest_reply =
                self.seats[self.at].time.slowest_reply.max(waited);
        }
        // Games that count time (a budget, an acknowledgement limit) count
        // the bot's own time, as it would have had it on an idle machine. A
        // reply before the clock's first look took a few milliseconds.
        if clock.cpu_wait().is_some() {
            clock.look(&self.seats[self.at].inbox.conn);
        }
        let own = clock.own(waited);
        let first = self.seats[self.at].inbox.replies_seen == 1;
        self.session.reply_took(waited, own, first);
        let judged = self.session.judge(reply, expect, own.unwrap_or(waited))?;
        self.passed(&judged.passed);
        self.passed_areas(&judged.passed_areas);
        // The reply's line shows the game as the reply left it.
        self.draw_last_line();
        if judged.still_due {
            self.seats[self.at].inbox.pending.push_front(since);
            self.seats[self.at].inbox.replies_seen -= 1;
            for v in judged.violations {
                self.push(v);
            }
            return Ok(());
        }
        let as_read = self.session.reply_as_read(reply);
        // The game's own verdict on the reply names the rule it broke; a
        // scripted expectation adds to it only where the game found no fault.
        let game_failed = judged
            .violations
            .iter()
            .any(|v| self.effective(v.severity) == crate::verdict::Severity::Fail);
        for v in judged.violations {
            self.push(v);
        }
        if !game_failed {
            // The reply came in time: a check of the timeout that held.
            self.passed(&[crate::shared_rules::IO_TIMEOUT.id]);
            self.check_explicit(expect, &as_read)?;
        }
        if let Some(live) = &mut self.ledger.live {
            live.last_reply = Some(as_read);
        }
        self.check_memory();
        if !self.has_failure() {
            self.write_all(judged.follow_ups);
        }
        Ok(())
    }

    /// `expect: {reply}` and `{matches}` are checked here, the same for every game.
    fn check_explicit(&mut self, expect: &Expect, text: &str) -> Result<(), ScriptFault> {
        match expect {
            Expect::Reply(want) if want == text => self.passed(&[EXPECT_REPLY.id]),
            Expect::Reply(want) => {
                let v = EXPECT_REPLY
                    .violation(format!("expected the reply `{want}`, got `{text}`"))
                    .with_expected(want.clone())
                    .with_actual(text);
                self.push(self.with_scenario_spec(v));
            }
            Expect::Matches(pattern) => {
                let re = crate::scenario::load::compile_pattern(pattern)
                    .map_err(|e| ScriptFault(e.to_string()))?;
                if !re.is_match(text) {
                    let v = EXPECT_MATCHES
                        .violation(format!("the reply `{text}` does not match /{pattern}/"))
                        .with_expected(format!("/{pattern}/"))
                        .with_actual(text);
                    self.push(self.with_scenario_spec(v));
                } else {
                    self.passed(&[EXPECT_MATCHES.id]);
                }
            }
            _ => {}
        }
        Ok(())
    }

    pub(super) fn with_scenario_spec(&self, mut v: Violation) -> Violation {
        if let Some(spec) = &self.scenario.spec {
            v.spec = spec.clone().into();
        }
        v
    }
}
