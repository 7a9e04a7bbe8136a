//! A reply that timed out and came after all, while protocheck ended the
//! session: which cause the transcript shows, and the finding reworded to
//! name it.
//!
//! A reply written into an output buffer that is never flushed reaches
//! protocheck only when the bot's end flushes it: the bot reads END or end
//! of input and exits, and its runtime (C stdio, Python, GHC, …) writes the
//! buffer out. So a late reply is called unflushed when
//! * the bot was proved blocked reading its input while the reply was due
//!   (it had nothing left to do), or
//! * it did not compute while the reply was due (its CPU time hardly
//!   advanced: asleep in `poll`, in a timer loop, …) and the reply arrived
//!   at the end: within [`FLUSHED_AT_END`] of protocheck ending the session
//!   (END, or its input closed), or
//! * nothing could be measured of the bot (another OS) and its exit followed
//!   the reply at once (within [`FLUSHED_AT_EXIT`]).
//!
//! A bot whose CPU time advanced was computing: too slow, not unflushed. A
//! bot that used no CPU and answered well after the end (a sleep that ran
//! out) was too slow too, and is told it was waiting, not computing: "busy"
//! is said only of a bot that used the CPU.

use super::seat::{LateArrival, LateCause};
use super::{LateVerdict, Run};
use crate::games::Transport;
use crate::verdict::{Severity, Violation};
use std::time::{Duration, Instant};

/// How soon after a late reply the bot's output must end for the reply to
/// count as flushed by the exit (used only where the bot's CPU time cannot
/// be measured).
pub(super) const FLUSHED_AT_EXIT: Duration = Duration::from_millis(100);

/// How soon after protocheck ended the session (END, or the bot's input
/// closed) a late reply from a bot that was not computing must arrive to
/// count as flushed by that end: the bot's reaction to END or end of input
/// and its exit, with room for a runtime's shutdown.
pub(super) const FLUSHED_AT_END: Duration = Duration::from_millis(250);

/// What protocheck saw of a timed-out reply that came after all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LateEvidence {
    /// Proved blocked reading its input while the reply was due.
    pub(super) blocked: bool,
    /// Its CPU time advanced while the reply was due: it was computing.
    pub(super) computing: bool,
    /// Its CPU time could be measured at all.
    pub(super) measured: bool,
    /// How long after protocheck ended the session the reply arrived
    /// (`None`: the session had not been ended).
    pub(super) after_end: Option<Duration>,
    /// Whether the bot's output ended at once after the reply (`None`: not
    /// known yet).
    pub(super) exit_followed: Option<bool>,
}

impl LateEvidence {
    /// The cause the evidence shows; `None`: only the bot's exit can tell
    /// (wait for it).
    pub(super) fn verdict(&self) -> Option<LateVerdict> {
        if self.blocked {
            return Some(LateVerdict::NotFlushed);
        }
        if self.computing {
            return Some(LateVerdict::TooSlow);
        }
        if !self.measured {
            return self.exit_followed.map(|followed| {
                if followed {
                    LateVerdict::NotFlushed
                } else {
                    LateVerdict::TooSlow
                }
            });
        }
        Some(match self.after_end {
            Some(after) if after <= FLUSHED_AT_END => LateVerdict::NotFlushed,
            _ => LateVerdict::TooSlow,
        })
    }
}

impl Run<'_> {
    /// protocheck ends the bot's session now (END, or its input closed): a
    /// late reply that arrives soon after was flushed by that end.
    pub(super) fn mark_ended(&mut self, how: impl Into<String>) {
        let seat = &mut self.seats[self.at];
        if seat.time.ended.is_some() {
            return;
        }
        seat.time.ended = Some((Instant::now(), how.into()));
        if let Some(late) = &mut seat.time.late {
            late.clock.look(&seat.inbox.conn);
            late.wait_at_end = late.clock.cpu_wait();
        }
    }

    /// If `bytes` is the reply that timed out, arriving at `at` as
    /// protocheck ends the session: reword its finding with the cause the
    /// transcript shows (or wait for the exit to tell) and return true.
    pub(super) fn late_reply_arrived(&mut self, bytes: &[u8], at: Instant) -> bool {
        if !(self.finishing || self.seats[self.at].life.input_closed_at_end()) {
            return false;
        }
        let Some(index) = self.seats[self.at].time.timed_out_at.take() else {
            return false;
        };
        if self.ledger.findings.kept_get_mut(index).is_none() {
            return false;
        }
        // The reply that never came arrives as protocheck ends the
        // session: one finding, with the cause the bot's behaviour shows.
        self.seats[self.at].time.flushed_late = true;
        let evidence = self.late_evidence(at);
        match evidence.verdict() {
            Some(verdict) => self.reword_late(index, bytes, at, verdict),
            // Whether the exit follows at once decides (`settle_late_arrival`).
            None => {
                self.seats[self.at].time.late_arrival = Some(LateArrival {
                    index,
                    bytes: bytes.to_vec(),
                    at,
                })
            }
        }
        true
    }

    /// What is known now of the timed-out reply arriving at `at`.
    fn late_evidence(&mut self, at: Instant) -> LateEvidence {
        let seat = &mut self.seats[self.at];
        let after_end = seat
            .time
            .ended
            .as_ref()
            .map(|(end, _)| at.saturating_duration_since(*end));
        let Some(late) = &mut seat.time.late else {
            return LateEvidence {
                blocked: false,
                computing: false,
                measured: false,
                after_end,
                exit_followed: None,
            };
        };
        // Measured only if the clock looked while the reply was due.
        let measured = late.clock.ran().is_some();
        late.clock.look(&seat.inbox.conn);
        // From the end to the reply in the bot's own time: a bot the
        // machine kept waiting for a CPU as it left still left at once.
        let kept_waiting = late
            .clock
            .cpu_wait()
            .zip(late.wait_at_end)
            .map_or(Duration::ZERO, |(now, then)| now.saturating_sub(then));
        let after_end = after_end.map(|after| after.saturating_sub(kept_waiting));
        LateEvidence {
            blocked: matches!(late.cause, LateCause::Blocked),
            computing: matches!(late.cause, LateCause::Busy { computing: true })
                || late.clock.computing(),
            measured,
            after_end,
            exit_followed: None,
        }
    }

    /// Whether the timed-out reply, if it still comes, could be called
    /// unflushed: not when the bot was computing.
    pub(super) fn late_reply_may_be_buffered(&mut self) -> bool {
        let seat = &mut self.seats[self.at];
        if seat.time.timed_out_at.is_none() {
            return false;
        }
        match &mut seat.time.late {
            Some(late) => {
                late.clock.look(&seat.inbox.conn);
                !(matches!(late.cause, LateCause::Busy { computing: true })
                    || late.clock.computing())
            }
            None => true,
        }
    }

    /// A late reply whose cause waited on the bot's exit: the bot's output
    /// ended (`ended`) or protocheck is stopping it.
    pub(super) fn settle_late_arrival(&mut self, ended: bool) {
        let Some(arrival) = self.seats[self.at].time.late_arrival.take() else {
            return;
        };
        let evidence = LateEvidence {
            exit_followed: Some(ended && arrival.at.elapsed() <= FLUSHED_AT_EXIT),
            ..self.late_evidence(arrival.at)
        };
        let verdict = evidence.verdict().unwrap_or(LateVerdict::TooSlow);
        self.reword_late(arrival.index, &arrival.bytes, arrival.at, verdict);
    }

    /// Name the cause of a timed-out reply that arrived (at `at`) as
    /// protocheck ended the session.
    fn reword_late(&mut self, index: usize, bytes: &[u8], at: Instant, verdict: LateVerdict) {
        let text = &crate::shown::message_text(bytes);
        let message = match verdict {
            LateVerdict::NotFlushed => self.not_flushed_message(text, at),
            LateVerdict::TooSlow => self.too_slow_message(text),
        };
        let Some(v) = self.ledger.findings.kept_get_mut(index) else {
            return;
        };
        v.message = message;
        // Not a diff that looks like a match: the reply came, too late.
        v.actual = Some(match verdict {
            LateVerdict::NotFlushed => format!("{text}   (only as the session ended)"),
            LateVerdict::TooSlow => format!("{text}   (too late)"),
        });
        // The finding this really is: the session's, where it knows (a
        // robustness probe judges the late output as the answer to its
        // question); otherwise a reply that came, however late, shows an
        // answer under way, which is `io.timeout` whatever the scenario
        // probes (`attribution`).
        let late = v.clone();
        let real = self
            .session
            .late_reply(&late, bytes)
            .or_else(|| self.late_finding(&late));
        if let Some(real) = real {
            let fails = self.effective(real.severity) == Severity::Fail;
            let real = Violation {
                message: real.message,
                expected: late.expected,
                actual: late.actual,
                step: late.step,
                board: late.board,
                timing: late.timing,
                ..real
            };
            self.ledger.findings.replace_kept(index, real, fails);
        }
    }

    fn not_flushed_message(&self, text: &str, at: Instant) -> String {
        let (what, advice) = match self.game.facts().wire.transport {
            Transport::Stdio => (
                "stdout is not flushed after each line",
                "Flush stdout after every line you write.",
            ),
            Transport::Tcp => (
                "the connection's output is not flushed after each message",
                "Flush the socket's output stream after every message you write.",
            ),
        };
        let seat = &self.seats[self.at];
        let when = match &seat.time.ended {
            Some((end, how)) => format!(
                "only when protocheck {how} ({} ms later)",
                at.saturating_duration_since(*end).as_millis()
            ),
            _ => "only when the bot exited, after protocheck had ended the game".to_string(),
        };
        let meanwhile = match &seat.time.late {
            Some(late) if matches!(late.cause, LateCause::Blocked) => {
                " The bot had been blocked reading its input while the reply was due: the reply sat in its output buffer.".to_string()
            }
            Some(late) => match late.clock.ran() {
                Some(ran) => format!(
                    " The bot used {} ms of CPU time while the reply was due, so it was not computing it: the reply sat in its output buffer until the end flushed it.",
                    ran.as_millis()
                ),
                None => " Its exit followed the reply at once: the exit flushed the buffer.".to_string(),
            },
            None => String::new(),
        };
        format!("{what}: the reply `{text}` reached protocheck {when}.{meanwhile} {advice}")
    }

    fn too_slow_message(&mut self, text: &str) -> String {
        let reference = self.game.defaults().reference_time_limit;
        let seat = &mut self.seats[self.at];
        let (figures, limit, doing) = match &mut seat.time.late {
            Some(late) => {
                late.clock.look(&seat.inbox.conn);
                let wall = late.due.elapsed();
                let figures = late.clock.timing(wall, late.limit).describe();
                let computing = matches!(late.cause, LateCause::Busy { computing: true })
                    || late.clock.computing();
                let doing = match late.clock.ran() {
                    _ if computing => "it was computing".to_string(),
                    Some(ran) => format!(
                        "it used {} ms of CPU time, so it was not computing but waiting on something other than protocheck's messages, such as a sleep or a timer",
                        ran.as_millis()
                    ),
                    None => "protocheck cannot see here whether it was computing".to_string(),
                };
                (figures, late.limit, doing)
            }
            None => (
                String::from("?"),
                seat.time.timeout,
                "protocheck cannot see here whether it was computing".to_string(),
            ),
        };
        format!(
            "too slow: the reply `{text}` came after {figures}, while the bot was still running ({doing}): over the limit of {}. This is not a flushing problem. Make the bot answer sooner, or allow more time with --timeout; {reference}.",
            humantime::format_duration(limit)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence() -> LateEvidence {
        LateEvidence {
            blocked: false,
            computing: false,
            measured: true,
            after_end: Some(Duration::from_millis(1)),
            exit_followed: None,
        }
    }

    fn is_flushing(v: Option<LateVerdict>) -> bool {
        matches!(v, Some(LateVerdict::NotFlushed))
    }

    #[test]
    fn an_asleep_bot_whose_reply_comes_at_the_end_did_not_flush() {
        // Issue 32: asleep in poll() with a timeout, utime 0, the reply 1 ms
        // after protocheck closed its input.
        assert!(is_flushing(evidence().verdict()));
    }

    #[test]
    fn a_computing_bot_was_too_slow_even_at_the_end() {
        let e = LateEvidence {
            computing: true,
            ..evidence()
        };
        assert!(matches!(e.verdict(), Some(LateVerdict::TooSlow)));
    }

    #[test]
    fn an_asleep_bot_that_answers_well_after_the_end_was_too_slow() {
        // A sleep that ran out after protocheck sent END: not the end's flush.
        let e = LateEvidence {
            after_end: Some(Duration::from_millis(900)),
            exit_followed: Some(true),
            ..evidence()
        };
        assert!(matches!(e.verdict(), Some(LateVerdict::TooSlow)));
        let e = LateEvidence {
            after_end: None,
            ..evidence()
        };
        assert!(matches!(e.verdict(), Some(LateVerdict::TooSlow)));
    }

    #[test]
    fn a_blocked_bot_did_not_flush() {
        let e = LateEvidence {
            blocked: true,
            after_end: Some(Duration::from_secs(3)),
            ..evidence()
        };
        assert!(is_flushing(e.verdict()));
    }

    #[test]
    fn unmeasured_the_exit_decides() {
        let e = LateEvidence {
            measured: false,
            ..evidence()
        };
        assert!(e.verdict().is_none(), "waits for the exit");
        let followed = LateEvidence {
            exit_followed: Some(true),
            ..e
        };
        assert!(is_flushing(followed.verdict()));
        let not = LateEvidence {
            exit_followed: Some(false),
            ..e
        };
        assert!(matches!(not.verdict(), Some(LateVerdict::TooSlow)));
    }
}
