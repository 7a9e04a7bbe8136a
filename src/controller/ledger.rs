//! What a run keeps as it goes: transcript lines (with the game's picture
//! beside each when the HTML report asks for them), findings (with the
//! game's say on whether a failure ends the game), and the scenario's result
//! at the end.

use super::bounds::{Findings, Transcript};
use super::{Live, Run, ScenarioRun, ScriptFault};
use crate::outcome::{Direction, ScenarioResult, Status, TranscriptLine};
use crate::scenario::Step;
use crate::transport::limits::LimitKind;
use crate::verdict::{Severity, StepRef, Violation};
use std::time::Instant;

/// Everything a run keeps for its result, whichever bot it came from: one
/// place, so a run with several bots keeps one transcript and one list of
/// findings in the order things happened.
pub(super) struct Ledger {
    /// When the run started: transcript lines are stamped from here.
    pub(super) started: Instant,
    pub(super) transcript: Transcript,
    pub(super) findings: Findings,
    /// The first failing finding's rule, and whether the bot was still
    /// starting up then (see `Run::at_startup`).
    pub(super) first_failure: Option<(&'static str, bool)>,
    /// The step being run, which a finding is reported against.
    pub(super) step: Option<StepRef>,
    /// The steps that replay the run exactly.
    pub(super) replay: Vec<Step>,
    /// Step-wise runs (`protocheck record`): what happened since the caller
    /// last looked, to show it at once. `None` in ordinary runs.
    pub(super) live: Option<Live>,
}

impl Ledger {
    pub(super) fn new() -> Ledger {
        Ledger {
            started: Instant::now(),
            transcript: Transcript::default(),
            findings: Findings::default(),
            first_failure: None,
            step: None,
            replay: Vec::new(),
            live: None,
        }
    }
}

impl Run<'_> {
    pub(super) fn record(&mut self, dir: Direction, text: String) {
        let ms = self.ledger.started.elapsed().as_millis() as u64;
        let line = TranscriptLine { dir, text, ms };
        if let Some(live) = &mut self.ledger.live {
            live.lines.push(line.clone());
        }
        self.ledger.transcript.push(line);
        self.draw_last_line();
    }

    /// The game as it stands, drawn beside the last line (when pictures are
    /// asked for): when a line is recorded (a message protocheck sends is
    /// applied before it is written), and again once a reply is judged.
    pub(super) fn draw_last_line(&mut self) {
        if !self.cfg.pictures {
            return;
        }
        let picture = self.session.picture();
        if let Some(frame) = self.ledger.transcript.last_frame_mut() {
            frame.picture = picture;
        }
    }

    pub(super) fn note(&mut self, text: impl Into<String>) {
        self.record(Direction::Note, text.into());
    }

    /// A failure that ends the game (every failure, unless the game
    /// recovers from its rule: `Game::failure_ends_game`).
    pub(super) fn has_failure(&self) -> bool {
        self.ledger.findings.must_stop()
    }

    pub(super) fn effective(&self, s: Severity) -> Severity {
        if self.cfg.strict { Severity::Fail } else { s }
    }

    pub(super) fn push(&mut self, mut v: Violation) {
        if v.step.is_none() {
            v.step = self.ledger.step.clone();
        }
        if v.board.is_none() {
            v.board = self.session.board();
        }
        let fails = self.effective(v.severity) == Severity::Fail;
        if let Some(live) = &mut self.ledger.live {
            live.violations.push(v.clone());
        }
        if fails && self.ledger.first_failure.is_none() {
            self.ledger.first_failure = Some((v.rule, self.at_startup()));
        }
        let stops = self.game.failure_ends_game(v.rule);
        let index = self.ledger.findings.kept_len();
        self.ledger.findings.push_failure(v, fails, stops);
        if self.cfg.pictures
            && self.ledger.findings.kept_len() > index
            && let Some(frame) = self.ledger.transcript.last_frame_mut()
        {
            frame.findings.push(index);
        }
    }

    /// Whether the bot is still starting up: it has not completed a reply
    /// yet, or its only reply is the one it opens with (a sign-up, the
    /// handshake of games where the bot speaks first) and protocheck has
    /// not answered it yet, so a finding now is about that handshake.
    fn at_startup(&self) -> bool {
        self.seats[self.at].inbox.replies_seen == 0
            || (self.seats[self.at].inbox.replies_seen == 1 && !self.ledger.transcript.has_sent())
    }

    pub(super) fn finish(mut self, fault: Option<ScriptFault>) -> ScenarioRun {
        self.finishing = true;
        if fault.is_none() && self.has_failure() && !self.gone() {
            // Like the reference engines: tell the bot the game is over, then
            // see whether it leaves.
            let outs = self.session.abort();
            if !outs.is_empty() {
                for out in outs {
                    self.write(out);
                }
                self.expect_exit();
            } else if self.game.ends_by_closing_input() {
                self.close_input_at_end();
                self.expect_exit();
            }
        }
        let (stderr_bytes, stderr_tail) = self.seats[self.at].inbox.conn.stderr();
        if fault.is_none() {
            for v in self.session.finish(stderr_bytes, &stderr_tail) {
                self.push(v);
            }
        }
        // A late reply the bot's exit did not follow: it was still running.
        self.settle_late_arrival(false);
        if let Some(status) = self.seats[self.at].inbox.conn.terminate()
            && self.seats[self.at].exit.status().is_none()
        {
            self.note(format!("protocheck stopped the bot ({status})"));
        }
        // A resource limit the bot hit (transport::limits) is a verdict.
        if fault.is_none()
            && let Some(hit) = self.seats[self.at].inbox.conn.limit_hit()
            && !(hit.kind == LimitKind::Memory && self.seats[self.at].memory_reported)
        {
            let v = hit.violation(self.game.memory_limit().map(|(_, rule)| rule));
            self.push(v);
        }
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
                status,
                error,
                skip_reason: None,
                violations,
                omitted,
                transcript,
                stderr_bytes,
                stderr_tail,
                duration_ms: self.ledger.started.elapsed().as_millis() as u64,
                listened_ms: self.seats[self.at].time.listened.as_millis() as u64,
                replay: None,
                saved_to: None,
                // The report steps through the games that did not pass only;
                // a long run of passing games keeps no pictures.
                frames: if self.cfg.pictures && status != Status::Passed {
                    frames
                } else {
                    Vec::new()
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
