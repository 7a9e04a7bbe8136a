//! What a run keeps as it goes: transcript lines (with the game's picture
//! beside each when the HTML report asks for them) and findings (with the
//! game's say on whether a failure ends the game), each marked with the seat
//! of the bot it is about when more than one bot is at the table.

use super::bounds::{Findings, Transcript};
use super::seat::SeatId;
use super::{Live, Run};
use crate::coverage::Coverage;
use crate::outcome::{Direction, TranscriptLine};
use crate::scenario::Step;
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
    /// The seat each kept finding is about (`finding_seats[i]` belongs to
    /// the i-th kept finding).
    pub(super) finding_seats: Vec<SeatId>,
    /// The kept findings about how a bot ended or fell silent (a crash, an
    /// exit, no connection, no reply): the ones a refusal of the sandbox
    /// just before can explain (`refusal`).
    pub(super) ending_findings: Vec<usize>,
    /// The checks that ran and the situations reached: the one sink judging
    /// writes to (`crate::coverage`). A finding is a broken check here,
    /// counted before the bounds fold repeats away.
    pub(super) coverage: Coverage,
    /// The checks found kept, added to `coverage` when the scenario ends
    /// (`coverage::Passes`: cheaper to count into).
    pub(super) passes: crate::coverage::Passes,
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
            finding_seats: Vec::new(),
            ending_findings: Vec::new(),
            coverage: Coverage::default(),
            passes: Default::default(),
        }
    }
}

impl Run<'_> {
    /// Record a transcript line about the bot at this seat (with more than
    /// one bot at the table, the line says which seat).
    pub(super) fn record(&mut self, dir: Direction, text: String) {
        let text = if self.seats.len() > 1 {
            format!("{}: {text}", self.at)
        } else {
            text
        };
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
    /// recovers from its rule, `GameFacts::failure_ends_game`, in a single
    /// run).
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
        self.ledger.coverage.broken(v.rule);
        if let Some(live) = &mut self.ledger.live {
            live.violations.push(v.clone());
        }
        if fails && self.ledger.first_failure.is_none() {
            self.ledger.first_failure = Some((v.rule, self.at_startup()));
        }
        // At a match table (a session per seat) every failure ends the game:
        // its bot forfeits (docs/match.md). A single run plays on after the
        // failures its game recovers from.
        let stops = self.own_sessions || (self.game.facts().failure_ends_game)(v.rule);
        let index = self.ledger.findings.kept_len();
        self.ledger.findings.push_failure(v, fails, stops);
        if self.ledger.findings.kept_len() > index {
            self.ledger.finding_seats.push(self.at);
            if self.cfg.pictures
                && let Some(frame) = self.ledger.transcript.last_frame_mut()
            {
                frame.findings.push(index);
            }
        }
    }

    /// Checks of these rules ran and held (see `Ledger::coverage`).
    pub(super) fn passed(&mut self, rules: &[crate::verdict::RuleId]) {
        for rule in rules {
            self.ledger.passes.passed(rule);
        }
    }

    /// Checks of every rule of these areas ran and held
    /// (`Judged::passed_areas`), each area counted as one set.
    pub(super) fn passed_areas(&mut self, areas: &[&'static [crate::verdict::RuleId]]) {
        for &rules in areas {
            self.ledger.passes.passed_all(rules);
        }
    }

    /// [`Run::push`] for a finding about how the bot ended or fell silent
    /// (see `Ledger::ending_findings`).
    pub(super) fn push_ending(&mut self, v: Violation) {
        let index = self.ledger.findings.kept_len();
        self.push(v);
        if self.ledger.findings.kept_len() > index {
            self.ledger.ending_findings.push(index);
        }
    }

    /// Whether the bot is still starting up: it has not completed a reply
    /// yet, or its only reply is the one it opens with (a sign-up, the
    /// handshake of games where the bot speaks first) and protocheck has
    /// not answered it yet, so a finding now is about that handshake.
    pub(super) fn at_startup(&self) -> bool {
        self.seats[self.at].inbox.replies_seen == 0
            || (self.seats[self.at].inbox.replies_seen == 1 && !self.ledger.transcript.has_sent())
    }
}
