//! Checking a scenario before any bot runs: every scripted message is played
//! through the game's rules in the tracked state, so a CHANGE whose board is
//! not what the move produces is reported at its file:line:col (exit 2).
//! The steps mean what they mean in a live run: this is the dry back end of
//! `scenario::interpret`.

use crate::games::{Game, Next, Session};
use crate::scenario::interpret::{StepBackend, StepFault, StepInterpreter};
use crate::scenario::{Expect, LoadError, Scenario, Span, Step};
use std::time::Duration;

/// All problems of one scenario (empty when it is valid).
pub fn lint(scenario: &Scenario, game: &dyn Game) -> Vec<LoadError> {
    let mut errors = Vec::new();
    let at = |span: &Span, msg: String| LoadError::new(&scenario.source, span, msg);
    let first_span = scenario
        .steps
        .first()
        .map(|(_, s)| s.clone())
        .unwrap_or(Span { line: 1, column: 1 });
    // A scenario made in code (not read from a file) meets the check of a
    // game's own expectations here.
    let unknown: Vec<LoadError> = scenario
        .steps
        .iter()
        .filter_map(|(step, span)| match step {
            Step::Expect(expect) => crate::games::check_expect(game, expect)
                .err()
                .map(|e| at(span, e.to_string())),
            _ => None,
        })
        .collect();
    if !unknown.is_empty() {
        errors.extend(unknown);
        return errors;
    }
    let session = match game.session(&scenario.options) {
        Ok(s) => s,
        Err(e) => {
            errors.push(at(&first_span, format!("options: {e}")));
            return errors;
        }
    };
    let mut dry = DryRun::new(session);
    // Later steps would only repeat the confusion: the walk stops at the
    // first error (but for steps that may not follow `play: to-end`).
    if let Err(found) = StepInterpreter::default().walk(&scenario.steps, &mut dry) {
        errors.extend(found.into_iter().map(|e| at(&e.span, e.fault.to_string())));
    }
    errors
}

/// A session tracked through the steps, with the count of replies due; no
/// bot runs, every reply is assumed to be what the step expects.
struct DryRun {
    session: Box<dyn Session>,
    pending: usize,
    rng: fastrand::Rng,
}

impl DryRun {
    fn new(session: Box<dyn Session>) -> DryRun {
        // A client that speaks first (Evolution's sign-up) owes a reply at once.
        let pending = usize::from(session.next() == Next::Bot);
        DryRun {
            session,
            pending,
            rng: fastrand::Rng::with_seed(0),
        }
    }
}

impl StepBackend for DryRun {
    // Bounded: a tracked game could keep asking (Kalah extra turns).
    const SETTLE_LIMIT: usize = 10_000;
    // The end of a generated game is not simulated.
    const PLAYS_OUT: bool = false;

    fn at_step(&mut self, _index: usize, _span: &Span) {}

    fn replies_due(&self) -> usize {
        self.pending
    }

    fn count_known(&self) -> bool {
        self.session.state_known()
    }

    fn ended(&self) -> bool {
        false
    }

    fn interrupts(&self, _text: &str) -> bool {
        // As a live run (`controller::steps`): no game's message does.
        false
    }

    fn drop_due_replies(&mut self) {
        self.pending = 0;
    }

    fn reply(&mut self, expect: &Expect) -> Result<(), StepFault> {
        let pinned = match expect {
            Expect::Reply(r) => Some(r.as_str()),
            _ => None,
        };
        self.pending = self.pending.saturating_sub(1);
        let outs = self.session.assume(pinned)?;
        self.pending += outs.iter().map(|o| o.replies).sum::<usize>();
        Ok(())
    }

    fn send(&mut self, _step: &Step, text: &str) -> Result<(), StepFault> {
        self.pending = self.session.send(text)?.replies;
        Ok(())
    }

    fn opponent(&mut self, choice: &str) -> Result<(), StepFault> {
        let outs = self.session.opponent(choice, &mut self.rng)?;
        self.pending = outs.iter().map(|o| o.replies).sum();
        Ok(())
    }

    fn silence(&mut self, _step: &Step) {}

    fn exit(&mut self, _step: &Step) {}

    fn wait(&mut self, _step: &Step, _duration: Duration) {}

    fn close_input(&mut self, _step: &Step) {}

    fn play_to_end(&mut self) -> Result<(), StepFault> {
        Ok(())
    }
}
