//! One candidate played against the bot: the controller's step-wise run
//! (the runner's own transport, limits and judging), with protocheck's
//! moves taken from the candidate's choices instead of its strategy.
//!
//! As generated play does, it listens for the runner's pause before each of
//! protocheck's moves, lets the bot answer every move due, and expects its
//! exit at the end of the game. A choice that is not legal where it comes
//! (an earlier change made the game go another way) is replaced by a legal
//! one drawn from a generator seeded by the candidate, so a candidate is
//! always a legal game and the same candidate is always the same game. When
//! the choices run out before the bot failed, the game is cut there and the
//! candidate does not fail.

use super::Shrinkable;
use super::search::{Failure, Plan};
use crate::controller::{RunConfig, Stepwise};
use crate::games::{Game, Next};
use crate::scenario::{Expect, Scenario, Step};

pub use crate::games::shrinkable::bot_replies;

/// Whether a failing finding was made since the last look.
fn failed_now(run: &mut Stepwise<'_>) -> bool {
    run.take_live()
        .violations
        .iter()
        .any(|v| v.severity == crate::verdict::Severity::Fail)
}

/// Plays candidates of one failing generated game.
pub struct Player<'a> {
    pub game: &'a dyn Game,
    pub cfg: &'a RunConfig,
    pub shrink: &'a dyn Shrinkable,
    pub scenario: &'a Scenario,
}

impl Player<'_> {
    /// Play `plan`; its failure, if it failed, with the steps that replay
    /// the game as played.
    pub fn play(&self, plan: &Plan<String>) -> Option<(Failure<String>, Vec<Step>)> {
        let framed = self.shrink.framed(self.scenario, plan.frame);
        let mut run = match Stepwise::start(&framed, self.game, self.cfg) {
            Ok(Ok(run)) => run,
            _ => return None,
        };
        let seed = framed.options.seed.unwrap_or(0) ^ ((plan.choices.len() as u64) << 32);
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut made: Vec<String> = Vec::new();
        let mut alternatives: Vec<Vec<String>> = Vec::new();
        let mut tape = plan.choices.iter();
        let mut cut = false;
        let mut fault = false;
        // The bot has failed: the game is cut there, as the runner ends a
        // game at a failure (a game that plays on after one, as Dominion
        // does, would only add moves after it).
        let mut failed = false;
        // A pause is owed before protocheck's next move (see
        // `Shrinkable::one_pause_per_stretch`).
        let mut pause_owed = true;
        // A bot that speaks first is heard out, unless the opening's own
        // first step is what waits for it (Evolution's sign-up).
        let opening_expects = matches!(framed.steps.first(), Some((Step::Expect(_), _)));
        if run.reply_due() && !opening_expects {
            fault |= run.settle().is_err();
        }
        for (step, _) in &framed.steps {
            if fault || failed || run.is_ended() {
                break;
            }
            fault |= run.step(step).is_err();
            failed |= failed_now(&mut run);
        }
        // Each turn of the loop settles a reply or makes a move, and a game
        // has an end; the bound only guards against a game that has none.
        for _ in 0..100_000 {
            failed |= failed_now(&mut run);
            if fault || failed || run.is_ended() {
                break;
            }
            match run.session().next() {
                Next::Bot => {
                    if !run.reply_due() {
                        break;
                    }
                    fault |= run.settle().is_err();
                    pause_owed = true;
                }
                Next::Opponent => {
                    let legal = self.shrink.legal(run.session());
                    let step = if legal.is_empty() {
                        match self.shrink.forced() {
                            Some(step) => step,
                            None => break,
                        }
                    } else {
                        let Some(wanted) = tape.next() else {
                            cut = true;
                            break;
                        };
                        let choice = if legal.contains(wanted) {
                            wanted.clone()
                        } else {
                            legal[rng.usize(..legal.len())].clone()
                        };
                        made.push(choice.clone());
                        alternatives.push(legal);
                        self.shrink.step(&choice)
                    };
                    let pause = if pause_owed || !self.shrink.one_pause_per_stretch() {
                        run.pause_window()
                    } else {
                        std::time::Duration::ZERO
                    };
                    pause_owed = false;
                    if !pause.is_zero() {
                        let wait = Step::Wait(humantime::format_duration(pause).to_string());
                        fault |= run.step(&wait).is_err();
                        if fault || run.is_ended() {
                            break;
                        }
                    }
                    fault |= run.step(&step).is_err();
                }
                Next::Finished => {
                    fault |= run.step(&Step::Expect(Expect::Exit)).is_err();
                    break;
                }
            }
        }
        let ended = run.is_ended() || failed;
        let result = run.finish();
        // A scenario error is protocheck's, and a game cut short says
        // nothing of what the bot would have done next.
        if fault || (cut && !ended) {
            return None;
        }
        let rule = super::failing_rule(&result)?;
        let steps = result.replay_steps;
        let size = self.shrink.moves(&steps);
        Some((
            Failure {
                rule: rule.to_string(),
                size,
                played: Plan {
                    frame: plan.frame,
                    choices: made,
                },
                alternatives,
            },
            steps,
        ))
    }
}
