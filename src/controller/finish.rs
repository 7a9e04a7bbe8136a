//! The end of a run: every bot still at the table is told the game is over
//! where the game says so and given its grace to leave, each bot's process
//! group is killed and reaped (and what it hit of its resource limits
//! judged), and the ledger becomes the scenario's result.

use super::seat::{Lifecycle, SeatId};
use super::{Run, ScenarioRun, ScriptFault};
use crate::games::Transport;
use crate::outcome::{ScenarioResult, Status};
use crate::shared_rules;
use crate::transport::BotEvent;
use crate::transport::limits::LimitKind;
use crate::verdict::Severity;
use std::time::{Duration, Instant};

/// At most this long protocheck reads a bot whose missing reply may sit in
/// its output buffer, after closing its input (`drain_late_reply`).
const DRAIN_GRACE: Duration = Duration::from_secs(1);

impl Run<'_> {
    pub(super) fn finish(self, fault: Option<ScriptFault>) -> ScenarioRun {
        self.finish_seated(fault).0
    }

    /// [`Run::finish`], and the seat each kept finding is about.
    pub(super) fn finish_seated(
        mut self,
        fault: Option<ScriptFault>,
    ) -> (ScenarioRun, Vec<SeatId>) {
        self.finishing = true;
        if fault.is_none() && self.has_failure() {
            self.end_sessions();
        }
        // The first bot's stderr so far (in an ordinary run the only bot),
        // judged by the session; the result's is read again at the end.
        let (stderr_bytes, stderr_tail) = self.seats[SeatId(0)].inbox.conn.stderr();
        if fault.is_none() && self.own_sessions {
            // Each bot's stderr is judged by its own session.
            for seat in self.seat_ids() {
                self.turn_to(seat);
                let (bytes, tail) = self.seats[seat].inbox.conn.stderr();
                for v in self.session.finish(bytes, &tail) {
                    self.push(v);
                }
            }
        } else if fault.is_none() {
            for v in self.session.finish(stderr_bytes, &stderr_tail) {
                self.push(v);
            }
        }
        for seat in self.seat_ids() {
            self.turn_to(seat);
            self.release(fault.is_none());
        }
        // Once each bot is gone its stderr is complete.
        self.explain_refusals();
        if fault.is_none() {
            self.count_scenario_checks();
        }
        let coverage = &mut self.ledger.coverage;
        self.ledger.passes.add_to(coverage);
        // The report's tail is read to its end: a busy machine may keep the
        // drain thread from the last lines the bot wrote before it ended
        // (seen: a report whose tail lacked everything the bot wrote).
        let (stderr_bytes, stderr_tail) = self.seats[SeatId(0)].inbox.conn.stderr_of_ended_bot();
        let seats = std::mem::take(&mut self.ledger.finding_seats);
        (self.into_result(fault, stderr_bytes, stderr_tail), seats)
    }

    /// The coverage a scenario adds at its end: the rules the controller
    /// watched for the whole scenario that no finding broke, once each, and
    /// the situations each seat's session reached.
    fn count_scenario_checks(&mut self) {
        let line_too_long = self.game.line_too_long().id;
        let watched = [
            shared_rules::IO_CRASH.id,
            shared_rules::IO_UNEXPECTED_OUTPUT.id,
            shared_rules::IO_INVALID_UTF8.id,
            shared_rules::IO_OUTPUT_FLOOD.id,
            shared_rules::IO_OUTPUT_LIMIT.id,
            crate::transport::limits::IO_RESOURCE_LIMIT.id,
            line_too_long,
        ];
        for rule in watched {
            if !self.ledger.coverage.was_broken(rule) {
                self.passed(&[rule]);
            }
        }
        for seat in self.seat_ids() {
            self.turn_to(seat);
            for (id, n) in self.session.reached() {
                self.ledger.coverage.reached(id, n);
            }
        }
    }

    /// After a failure, like the reference engines: tell each bot still at
    /// the table that the game is over, then see whether it leaves.
    fn end_sessions(&mut self) {
        let present: Vec<SeatId> = self
            .seat_ids()
            .into_iter()
            .filter(|&seat| !self.seats[seat].life.is_gone())
            .collect();
        if present.is_empty() {
            return;
        }
        // Each bot is told by its own session where it has one.
        let shared = if self.own_sessions {
            Vec::new()
        } else {
            self.session.abort()
        };
        for seat in present {
            self.turn_to(seat);
            let outs = if self.own_sessions {
                self.session.abort()
            } else {
                shared.clone()
            };
            if !outs.is_empty() {
                let sent = outs
                    .iter()
                    .map(|o| format!("`{}`", o.text))
                    .collect::<Vec<_>>()
                    .join(", ");
                self.write_all(outs);
                self.mark_ended(format!("sent {sent}"));
                self.expect_exit();
            } else if self.game.facts().ends_by_closing_input {
                self.close_input_at_end();
                self.expect_exit();
            }
        }
    }

    /// Let go of the bot at this seat: kill and reap its process group, and
    /// judge a resource limit it hit (`judge`: the scenario itself ran).
    fn release(&mut self, judge: bool) {
        if judge {
            self.drain_late_reply();
        }
        // A late reply the bot's exit did not follow: it was still running.
        self.settle_late_arrival(false);
        if let Some(status) = self.seats[self.at].inbox.conn.terminate()
            && self.seats[self.at].exit.status().is_none()
        {
            self.note(format!("protocheck stopped the bot ({status})"));
        }
        // A resource limit the bot hit (transport::limits) is a verdict.
        if judge
            && let Some(hit) = self.seats[self.at].inbox.conn.limit_hit()
            && !(hit.kind == LimitKind::Memory && self.seats[self.at].memory_reported)
        {
            let v = hit.violation(self.game.facts().memory_limit.map(|(_, rule)| rule));
            self.push(v);
        }
    }

    /// A reply that timed out may sit in the bot's output buffer: a game
    /// that neither tells the bot it is over nor closes its input after a
    /// failure (QTP, Evolution) would kill it with the buffer unread. Close
    /// its input and read until it exits (its runtime flushes the buffer
    /// then) or a short grace passes, so the report can name the cause.
    /// Skipped for a bot that was computing: its reply was not ready.
    fn drain_late_reply(&mut self) {
        let seat = &self.seats[self.at];
        if seat.life.is_gone()
            || seat.life.input_closed_at_end()
            || seat.exit.status().is_some()
            || !self.late_reply_may_be_buffered()
        {
            return;
        }
        let how = match self.game.facts().wire.transport {
            Transport::Stdio => "closed its input",
            Transport::Tcp => "closed the connection",
        };
        self.note(format!(
            "protocheck {how}, to see whether the missing reply sits in the bot's output buffer"
        ));
        self.mark_ended(how);
        self.seats[self.at].life = Lifecycle::InputClosedAtEnd;
        self.seats[self.at].inbox.conn.close_input();
        let grace = self.seats[self.at].time.exit_grace.min(DRAIN_GRACE);
        let deadline = Instant::now() + grace;
        while let Some(event) = self.next_event(deadline) {
            match event {
                BotEvent::Message { bytes, at } => self.unexpected_at(&bytes, at),
                BotEvent::Exited { status, .. } => {
                    self.settle_late_arrival(true);
                    self.seats[self.at].exit = self.seats[self.at].exit.seen(status);
                    self.note(format!("the bot exited: {status}"));
                    return;
                }
                BotEvent::OutputClosed { .. } => self.settle_late_arrival(true),
                _ => {}
            }
        }
    }

    fn into_result(
        mut self,
        fault: Option<ScriptFault>,
        stderr_bytes: u64,
        stderr_tail: String,
    ) -> ScenarioRun {
        let strict = self.cfg.strict;
        for v in self.ledger.findings.kept_mut() {
            if strict {
                v.severity = Severity::Fail;
            }
        }
        let status = match (&fault, self.ledger.findings.has_failure()) {
            (Some(_), _) => Status::Error,
            (None, true) => Status::Failed,
            (None, false) => Status::Passed,
        };
        let error = fault.map(|ScriptFault(msg)| match &self.ledger.step {
            Some(s) => format!("{s}: {msg}"),
            None => msg,
        });
        // A generated game's outcome, for a policy's points per game won.
        let ending = match self.scenario.origin {
            crate::scenario::Origin::Generated { .. } => self.session.ending().map(|e| e.result),
            _ => None,
        };
        let (violations, mut omitted) = self.ledger.findings.into_parts();
        let (transcript, frames) = self.ledger.transcript.into_parts();
        if strict {
            for o in &mut omitted {
                o.severity = Severity::Fail;
            }
        }
        ScenarioRun {
            result: ScenarioResult {
                name: self.scenario.name.clone(),
                game: self.scenario.game.clone(),
                source: self.scenario.source.clone(),
                about: self.scenario.about.clone(),
                rules: self.scenario.rules.clone(),
                status,
                error,
                skip_reason: None,
                violations,
                omitted,
                transcript,
                stderr_bytes,
                stderr_tail,
                duration_ms: self.ledger.started.elapsed().as_millis() as u64,
                listened_ms: self
                    .seats
                    .iter()
                    .map(|s| s.time.listened)
                    .sum::<Duration>()
                    .as_millis() as u64,
                replay: None,
                saved_to: None,
                ending,
                // The report steps through the games that did not pass only;
                // a long run of passing games keeps no pictures. A match's
                // page steps through every game.
                frames: if self.cfg.pictures && (status != Status::Passed || self.own_sessions) {
                    frames
                } else {
                    Vec::new()
                },
                coverage: if status == Status::Interrupted {
                    Default::default()
                } else {
                    self.ledger.coverage
                },
            },
            replay_steps: self.ledger.replay,
            startup_failure: match self.ledger.first_failure {
                Some((rule, true)) if status == Status::Failed => Some(rule),
                _ => None,
            },
        }
    }
}
