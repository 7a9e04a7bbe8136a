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
use crate::verdict::Violation;
use std::time::{Duration, Instant};

/// How long a due reply may still take to arrive once the bot is proved
/// idle, before it is declared missing (a margin against a look that raced
/// the bot's last write; it costs only bots that never answer).
const LAST_CALL: Duration = Duration::from_millis(10);

impl Run<'_> {
    /// Wait for the oldest due reply, assemble it piece by piece as the
    /// game says, and judge it.
    pub(super) fn await_reply(&mut self, expect: &Expect) -> Result<(), ScriptFault> {
        let mut since = *self.seats[self.at]
            .inbox
            .pending
            .front()
            .expect("a reply is due");
        self.seats[self.at].inbox.unobserved_write = false;
        let limit = if self.seats[self.at].inbox.replies_seen == 0 {
            self.seats[self.at].time.startup_timeout
        } else {
            self.seats[self.at].time.timeout
        };
        let mut deadline = since + limit;
        let mut reply: Vec<u8> = Vec::new();
        let mut pieces = 0usize;
        let mut last_at = since;
        // Set while a complete reply waits to see whether more belongs to it.
        let mut grace_until: Option<Instant> = None;
        // A bot proved idle while its reply is due will never send it.
        let mut watch = pace::IdleWatch::for_reply(true);
        let mut idle_after: Option<Duration> = None;
        // The bot's own time, which the deadline is judged by.
        let mut clock = BotClock::new(since);
        loop {
            // Output kept from when nothing was due is this reply's start
            // (already reported as early by `unexpected`).
            let kept = self.seats[self.at].inbox.carry.is_none()
                && !self.seats[self.at].inbox.early.is_empty();
            let next = match self.seats[self.at]
                .inbox
                .carry
                .take()
                .or_else(|| self.seats[self.at].inbox.early.pop_front())
            {
                Some((bytes, at)) => Some(BotEvent::Message { bytes, at }),
                None => {
                    let until = grace_until.map_or(deadline, |g| g.min(deadline));
                    let mut next = None;
                    while Instant::now() < until {
                        next = self.next_event(clock.wake(watch.wake(until)));
                        if next.is_some() {
                            watch.saw_activity();
                            break;
                        }
                        clock.tick(&self.seats[self.at].inbox.conn);
                        if watch.proved(&self.seats[self.at].inbox.conn) {
                            // What the bot wrote before going idle is queued
                            // by now: a reply that came after the last look
                            // is a reply, not idleness. In a grace (a reply
                            // that may go on), an idle bot has ended it: it
                            // cannot write more until protocheck does.
                            // A due reply gets a last moment to arrive
                            // before it is declared missing.
                            let last = if grace_until.is_some() {
                                Duration::ZERO
                            } else {
                                LAST_CALL
                            };
                            next = self.next_event(Instant::now() + last);
                            if next.is_none() {
                                idle_after = Some(since.elapsed());
                            }
                            break;
                        }
                    }
                    next
                }
            };
            let Some(event) = next else {
                if self.stopped() {
                    return Ok(());
                }
                if grace_until.is_some() {
                    return self.complete_reply(&reply, expect, since, last_at, &mut clock);
                }
                if idle_after.is_none()
                    && let Some(more) =
                        clock.time_left(&self.seats[self.at].inbox.conn, since.elapsed(), limit)
                {
                    // The bot's own time has not reached the limit: the
                    // machine kept it waiting for a CPU.
                    deadline = Instant::now() + more;
                    continue;
                }
                let timing = clock.timing(since.elapsed(), limit);
                self.seats[self.at].inbox.pending.pop_front();
                if !reply.is_empty() {
                    self.record(
                        Direction::Received,
                        format!("{} (incomplete)", message_text(&reply)),
                    );
                }
                let mut v = self.session.timed_out(limit);
                if let Some(after) = idle_after {
                    let after =
                        humantime::format_duration(Duration::from_millis(after.as_millis() as u64));
                    self.note(format!(
                        "the bot is blocked reading its input ({after} after the message): it will never answer"
                    ));
                    v.message = format!(
                        "no reply: the bot is blocked reading its input. It has read everything protocheck sent and waits for more, so it will never answer (found after {after}, instead of waiting out {}). Does it wait for a message that never comes, or expect a different one?",
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
                let cause = match idle_after {
                    Some(_) => LateCause::Blocked,
                    None if watch.can_tell() => LateCause::Busy {
                        computing: clock.computing(),
                    },
                    None if clock.computing() => LateCause::Busy { computing: true },
                    None => LateCause::Unknown,
                };
                self.seats[self.at].time.late = Some(LateReply {
                    cause,
                    due: since,
                    limit,
                    clock,
                });
                if v.actual.is_none() {
                    v.actual = Some(format!(
                        "(no reply within {})",
                        humantime::format_duration(limit)
                    ));
                }
                // Remembered only if kept, so a late flush rewords this
                // finding and never another one.
                let index = self.ledger.findings.kept_len();
                self.push(v);
                if self.ledger.findings.kept_len() > index {
                    self.seats[self.at].time.timed_out_at = Some(index);
                }
                return Ok(());
            };
            match event {
                // Read before the message that made the reply due was even
                // written: the bot sent it out of turn.
                BotEvent::Message { bytes, at } if at < since && reply.is_empty() && !kept => {
                    self.unexpected(&bytes);
                    if self.has_failure() {
                        self.seats[self.at].inbox.pending.clear();
                        return Ok(());
                    }
                }
                BotEvent::Message { bytes, .. }
                    if pieces >= MAX_REPLY_PIECES
                        || reply.len() + bytes.len() > MAX_REPLY_BYTES =>
                {
                    self.seats[self.at].inbox.pending.pop_front();
                    self.record(
                        Direction::Received,
                        format!(
                            "{}… ({pieces} lines, never ended)",
                            message_text(&reply[..reply.len().min(120)])
                        ),
                    );
                    let v = self.game.line_too_long().violation(format!(
                        "a reply grew past {MAX_REPLY_PIECES} lines or {MAX_REPLY_BYTES} bytes without ending"
                    ));
                    self.push(v);
                    return Ok(());
                }
                BotEvent::Message { bytes, at } => match self.session.reply_part(&reply, &bytes) {
                    Assembly::StartsNext => {
                        self.seats[self.at].inbox.carry = Some((bytes, at));
                        return self.complete_reply(&reply, expect, since, last_at, &mut clock);
                    }
                    Assembly::Complete => {
                        reply.extend_from_slice(&bytes);
                        return self.complete_reply(&reply, expect, since, at, &mut clock);
                    }
                    Assembly::CompleteUnlessMore(grace) => {
                        pieces += 1;
                        reply.extend_from_slice(&bytes);
                        last_at = at;
                        grace_until = Some(Instant::now() + grace);
                        // Look soon: an idle bot ends the grace at once.
                        watch = pace::IdleWatch::for_listening(true);
                    }
                    Assembly::More => {
                        pieces += 1;
                        reply.extend_from_slice(&bytes);
                        last_at = at;
                        grace_until = None;
                    }
                },
                other => {
                    if !reply.is_empty() && grace_until.is_some() {
                        // The reply was complete; judge it before the exit.
                        self.complete_reply(&reply, expect, since, last_at, &mut clock)?;
                        reply.clear();
                        grace_until = None;
                    }
                    self.idle_event(other);
                    if self.gone() || self.has_failure() {
                        self.seats[self.at].inbox.pending.clear();
                        return Ok(());
                    }
                    match self.seats[self.at].inbox.pending.front() {
                        // Re-stamped: a TCP bot connected, and the reply due
                        // from the start is due from now on.
                        Some(&front)
                            if front != since
                                && reply.is_empty()
                                && self.seats[self.at].inbox.replies_seen == 0 =>
                        {
                            since = front;
                            deadline = since + limit;
                        }
                        Some(&front) if front == since => {}
                        _ => return Ok(()),
                    }
                }
            }
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
        let waited = at.saturating_duration_since(since);
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
        let own = clock.own(waited).unwrap_or(waited);
        let judged = self.session.judge(reply, expect, own)?;
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
        self.check_explicit(expect, &as_read)?;
        if let Some(live) = &mut self.ledger.live {
            live.last_reply = Some(as_read);
        }
        for v in judged.violations {
            self.push(v);
        }
        self.check_memory();
        if !self.has_failure() {
            for out in judged.follow_ups {
                self.write(out);
            }
        }
        Ok(())
    }

    /// `expect: {reply}` and `{matches}` are checked here, the same for every game.
    fn check_explicit(&mut self, expect: &Expect, text: &str) -> Result<(), ScriptFault> {
        match expect {
            Expect::Reply(want) if want != text => {
                let v = EXPECT_REPLY
                    .violation(format!("expected the reply `{want}`, got `{text}`"))
                    .with_expected(want.clone())
                    .with_actual(text);
                self.push(self.with_scenario_spec(v));
            }
            Expect::Matches(pattern) => {
                let re = crate::scenario::load::compile_pattern(pattern).map_err(ScriptFault)?;
                if !re.is_match(text) {
                    let v = EXPECT_MATCHES
                        .violation(format!("the reply `{text}` does not match /{pattern}/"))
                        .with_expected(format!("/{pattern}/"))
                        .with_actual(text);
                    self.push(self.with_scenario_spec(v));
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
