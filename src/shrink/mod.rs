//! Shrinking a failing generated game: the shortest game found that still
//! fails with the same rule, varying only protocheck's side (its moves, the
//! seat, the deal) and re-running the bot on each candidate. See
//! docs/shrinking.md.
//!
//! The search ([`search`]) is game-independent; each game that shrinks
//! says what its choices are and how a choice is made, legally, in the
//! tracked game ([`Shrinkable`], in its own folder, which
//! `Game::shrinker` hands over). [`live`] plays a
//! candidate against the bot through the controller's step-wise run, the
//! runner's own transport and judging.

pub mod live;
pub mod matches;
pub mod search;

use crate::controller::{RunConfig, ScenarioRun};
use crate::games::Game;
use crate::scenario::{Scenario, Step};
use std::time::{Duration, Instant};

/// How many times each candidate is played: it counts only when every run
/// fails with the rule at the same move.
pub const RERUNS: usize = 3;

/// At most this many other choices are tried in one place of a game.
pub const ALTERNATIVES: usize = 12;

/// `--shrink-time` by default, per failing game.
pub const DEFAULT_TIME: Duration = Duration::from_secs(30);

pub use crate::games::Shrinkable;

/// The shrinker of the game with this id (`None`: the game does not
/// shrink, or there is no such game).
pub fn for_game(id: &str) -> Option<&'static dyn Shrinkable> {
    crate::games::by_id(id).and_then(|g| g.shrinker())
}

/// A shrunk game, ready to save.
pub struct Shrunk {
    /// The scenario it was played as (its options; the seat may differ).
    pub scenario: Scenario,
    /// The steps that replay it.
    pub steps: Vec<Step>,
    pub rule: String,
    /// Moves (protocheck's and the bot's) up to the failure.
    pub from: usize,
    pub to: usize,
    pub runs: usize,
    /// Every pass ran to its end (otherwise the budget ran out).
    pub complete: bool,
}

/// How shrinking one failing game went.
pub enum Shrinking {
    Shrunk(Box<Shrunk>),
    /// The original game did not fail the same way every time it was
    /// played again.
    NotRepeatable {
        runs: usize,
    },
    /// The budget ran out before the game was played again.
    NoTime,
    /// The game cannot be shrunk (this game has no shrinker, or neither a
    /// choice of protocheck's nor another frame, or no failing rule).
    NotShrinkable,
}

impl Shrinking {
    /// One sentence for the report: "shrunk from 58 moves to 7 in 23 runs".
    pub fn summary(&self, budget: Duration) -> String {
        let budget = humantime::format_duration(budget);
        match self {
            Shrinking::Shrunk(s) if s.to < s.from => format!(
                "shrunk from {} moves to {} in {} runs{}",
                s.from,
                s.to,
                s.runs,
                if s.complete {
                    String::new()
                } else {
                    format!(", stopped by --shrink-time {budget}")
                }
            ),
            Shrinking::Shrunk(s) => format!(
                "not shrunk: no shorter game failed with {} in {} runs{}",
                s.rule,
                s.runs,
                if s.complete {
                    String::new()
                } else {
                    format!(" (--shrink-time {budget})")
                }
            ),
            Shrinking::NotRepeatable { runs } => format!(
                "not shrunk: played again, the game did not fail the same way (after {runs} run{}): is the bot deterministic?",
                if *runs == 1 { "" } else { "s" }
            ),
            Shrinking::NoTime => {
                format!(
                    "not shrunk: --shrink-time {budget} ran out before the game was played again"
                )
            }
            Shrinking::NotShrinkable => "not shrunk: this game cannot be shrunk".into(),
        }
    }
}

/// The rule a failed run is failed by: its first failing finding.
pub fn failing_rule(run: &ScenarioRun) -> Option<&'static str> {
    if run.result.status != crate::outcome::Status::Failed {
        return None;
    }
    let violations = &run.result.violations;
    violations
        .iter()
        .find(|v| v.severity == crate::verdict::Severity::Fail)
        .or(violations.first())
        .map(|v| v.rule)
}

/// Shrink the failing generated game `scenario`, whose run was `run`,
/// within `budget`.
pub fn shrink(
    game: &dyn Game,
    cfg: &RunConfig,
    scenario: &Scenario,
    run: &ScenarioRun,
    budget: Duration,
) -> Shrinking {
    let Some(shrink) = for_game(game.id()) else {
        return Shrinking::NotShrinkable;
    };
    let Some(rule) = failing_rule(run) else {
        return Shrinking::NotShrinkable;
    };
    let choices = shrink.choices(&run.replay_steps);
    // A game whose only choices are its frames (Evolution: the seat and the
    // deal) shrinks by them alone.
    if choices.is_empty() && shrink.frames(scenario) < 2 {
        return Shrinking::NotShrinkable;
    }
    let deadline = Instant::now() + budget;
    let mut out_of_time = || Instant::now() >= deadline || cfg.stop.is_stopped();
    let player = live::Player {
        game,
        cfg,
        shrink,
        scenario,
    };
    // The game as generated, played again up to its failure: a game that
    // plays on after a failure (Dominion) is measured to it, as every
    // candidate is.
    if out_of_time() {
        return Shrinking::NoTime;
    }
    let original = match player.play(&search::Plan { frame: 0, choices }) {
        Some((failure, _)) if failure.rule == rule => failure,
        _ => return Shrinking::NotRepeatable { runs: 1 },
    };
    // The steps of each failing game played, to save the best one.
    let mut played: Vec<(search::Plan<String>, Vec<Step>)> = Vec::new();
    let settings = search::Settings {
        reruns: RERUNS,
        frames: shrink.frames(scenario),
        alternatives: ALTERNATIVES,
        replace_first: shrink.replace_first(),
    };
    let outcome = search::Search::new(settings, &mut out_of_time, |plan: &search::Plan<String>| {
        let (failure, steps) = player.play(plan)?;
        if !played.iter().any(|(p, _)| *p == failure.played) {
            played.push((failure.played.clone(), steps));
        }
        Some(failure)
    })
    .run(original);
    // The first play of the original is a run too.
    match outcome {
        search::Outcome::NoTime { .. } => Shrinking::NoTime,
        search::Outcome::NotRepeatable { runs, .. } => Shrinking::NotRepeatable { runs: runs + 1 },
        search::Outcome::Shrunk {
            original,
            best,
            runs,
            complete,
        } => {
            let Some((_, steps)) = played.into_iter().find(|(p, _)| *p == best.played) else {
                return Shrinking::NotShrinkable;
            };
            Shrinking::Shrunk(Box::new(Shrunk {
                scenario: shrink.framed(scenario, best.played.frame),
                steps,
                rule: best.rule,
                from: original,
                to: best.size,
                runs: runs + 1,
                complete,
            }))
        }
    }
}
