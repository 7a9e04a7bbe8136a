//! A scenario run one step at a time, for `protocheck record`: the same
//! `Run` the runner drives (same transport, limits, judging and ending), with
//! the steps supplied by the caller as the user types them instead of read
//! from a file. What happens is collected as it happens so it can be shown
//! at once; the steps that replay it are the runner's own replay steps.

use super::{Run, RunConfig, ScenarioRun, start_run};
use crate::games::{Game, Session};
use crate::outcome::TranscriptLine;
use crate::scenario::interpret::{StepBackend, StepFault, StepInterpreter};
use crate::scenario::{Scenario, Span, Step};
use crate::transport::SpawnError;
use crate::verdict::Violation;

/// What happened since the caller last looked.
#[derive(Debug, Default)]
pub struct Live {
    pub lines: Vec<TranscriptLine>,
    pub violations: Vec<Violation>,
    /// The last reply as the game reads it (what `expect: {reply}` compares).
    pub last_reply: Option<String>,
}

pub struct Stepwise<'a> {
    run: Run<'a>,
    /// The meaning of the steps, the same as for a scenario file.
    interpreter: StepInterpreter,
    steps_taken: usize,
}

impl<'a> Stepwise<'a> {
    /// Start the bot for `scenario` (its steps are ignored: they come one by
    /// one through [`Stepwise::step`]) and listen for start-up output.
    /// `Ok(Err(_))`: the options give no session (the result says why).
    pub fn start(
        scenario: &'a Scenario,
        game: &'a dyn Game,
        cfg: &'a RunConfig,
    ) -> Result<Result<Stepwise<'a>, ScenarioRun>, SpawnError> {
        let mut run = match start_run(scenario, game, cfg)? {
            Ok(run) => run,
            Err(not_run) => return Ok(Err(not_run)),
        };
        run.ledger.live = Some(Live::default());
        run.begin();
        Ok(Ok(Stepwise {
            run,
            interpreter: StepInterpreter::default(),
            steps_taken: 0,
        }))
    }

    /// Run one step as the runner would, then wait for and judge every reply
    /// it made due (so the verdict is known before the next step). `Err`: the
    /// step contradicts the rules or the protocol in the tracked state; the
    /// runner would stop there with a scenario error, here the caller may
    /// try another step.
    pub fn step(&mut self, step: &Step) -> Result<(), StepFault> {
        let index = self.steps_taken;
        let span = Span {
            line: index as u32 + 1,
            column: 1,
        };
        self.run.at_step(index, &span);
        self.interpreter
            .step(&mut self.run, step)
            .and_then(|()| StepInterpreter::settle(&mut self.run))?;
        self.steps_taken += 1;
        Ok(())
    }

    /// Wait for and judge the replies due now (a bot that speaks first).
    pub fn settle(&mut self) -> Result<(), StepFault> {
        StepInterpreter::settle(&mut self.run)
    }

    /// Everything collected since the last call.
    pub fn take_live(&mut self) -> Live {
        std::mem::take(self.run.ledger.live.get_or_insert_with(Live::default))
    }

    /// The scenario is over for the runner: a failure, or the bot went away.
    /// Steps after this would not be run on replay.
    pub fn is_ended(&self) -> bool {
        self.run.has_failure() || self.run.gone()
    }

    /// Whether a reply is due (the bot speaks first and has not yet).
    pub fn reply_due(&self) -> bool {
        !self.run.seats[self.run.at].inbox.pending.is_empty()
    }

    /// How long generated play listens before protocheck's own move (the
    /// shrinker plays generated games step by step, with the same pauses).
    pub fn pause_window(&self) -> std::time::Duration {
        self.run.pause_window()
    }

    /// The tracked game, for the legal choices and the board.
    pub fn session(&self) -> &dyn Session {
        self.run.session.as_ref()
    }

    /// The steps that replay what happened so far (the runner's own record:
    /// the bot's replies as `expect: legal-move`, protocheck's `auto` moves
    /// written out).
    pub fn replay_steps(&self) -> &[Step] {
        &self.run.ledger.replay
    }

    /// Replace the last recorded step (a sharper `expect:` for the reply
    /// just judged, checked by the caller against what the bot sent).
    pub fn amend_last(&mut self, step: Step) {
        if let Some(last) = self.run.ledger.replay.last_mut() {
            *last = step;
        }
    }

    /// End as the runner ends a scenario after its last step: replies still
    /// due are judged, the bot is told the game is over where the game says
    /// so, and its process group is killed.
    pub fn finish(mut self) -> ScenarioRun {
        let fault = if self.is_ended() {
            None
        } else {
            self.run.end_of_steps().err()
        };
        self.run.finish(fault)
    }
}
