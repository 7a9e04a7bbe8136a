//! The suite: select scenarios, lint them all before any bot runs, run them
//! on the pool, `--jobs` at once (one bot process per scenario), stop early
//! when the first ones show the bot cannot get going or protocheck is
//! stopped, and save failing generated games as replayable scenario files.

pub mod aims;
pub mod budget;
pub mod invariants;
pub mod lint;
pub mod partition;
mod startup;

use startup::{GateVerdict, StartupGate};
pub use startup::{STARTUP_SAMPLE, StartupStop};

use crate::controller::{self, RunConfig, ScenarioRun};
use crate::games::Game;
use crate::outcome::{Direction, Status, TranscriptLine};
use crate::pool::{Outcome, Pool};
use crate::scenario::model::ScenarioOut;
use crate::scenario::{LoadError, Origin, Scenario};
use crate::transport::{SpawnError, process};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Does `name` match `--filter`: a glob when it has glob characters,
/// otherwise a substring.
pub fn matches_filter(name: &str, filter: &str) -> bool {
    if filter.contains(['*', '?', '[']) {
        glob::Pattern::new(filter)
            .map(|p| p.matches(name))
            .unwrap_or(false)
    } else {
        name.contains(filter)
    }
}

/// Lint every scenario; all problems, in order.
pub fn lint_all(scenarios: &[Scenario], game: &dyn Game) -> Vec<LoadError> {
    scenarios.iter().flat_map(|s| lint::lint(s, game)).collect()
}

/// Names must be unique so `--filter` and reports can tell scenarios apart.
pub fn duplicate_names(scenarios: &[Scenario]) -> Vec<LoadError> {
    let mut seen: std::collections::HashMap<&str, &str> = Default::default();
    let mut errors = Vec::new();
    for s in scenarios {
        if let Some(first) = seen.insert(&s.name, &s.source) {
            errors.push(LoadError {
                file: s.source.clone(),
                line: 1,
                column: 1,
                message: format!("scenario name `{}` is already used by {first}", s.name),
            });
        }
    }
    errors
}

/// For each scenario, why it is not run this time (`None`: it runs). A
/// built-in or generated scenario outside the game's default run is skipped
/// unless the user asked beyond it (`beyond_default`: `--all-sizes`, or game
/// options such as `--holes 6`). A file named with `--scenarios` always runs
/// as written: naming it is asking for it (and a saved failure replays).
pub fn default_run_skips(
    scenarios: &[Scenario],
    game: &dyn Game,
    beyond_default: bool,
) -> Vec<Option<String>> {
    scenarios
        .iter()
        .map(|s| {
            if beyond_default || s.origin == Origin::File {
                None
            } else {
                game.outside_default_run(&s.options)
            }
        })
        .collect()
}

/// What the workers report while a suite runs (for the progress line).
#[derive(Debug)]
pub enum SuiteEvent<'a> {
    Started { index: usize, name: &'a str },
    Finished { index: usize, status: Status },
}

/// When to stop before the end of the suite.
#[derive(Clone, Copy, Debug, Default)]
pub struct StopRules {
    /// `--fail-fast`: at the first scenario that does not pass.
    pub fail_fast: bool,
    /// `--keep-going`: never stop early because the first scenarios all
    /// failed the same way at start-up.
    pub keep_going: bool,
    /// `--bot-time-limit`: when the bot's whole run must end (see
    /// [`budget`]).
    pub budget: Option<budget::Budget>,
}

/// What a suite run produced.
pub struct SuiteRuns {
    /// One per scenario, in input order.
    pub runs: Vec<ScenarioRun>,
    /// Set when the run stopped early (see [`StartupStop`]).
    pub startup_stop: Option<StartupStop>,
    /// Scenarios not run (or cut) because `--bot-time-limit` was spent.
    pub budget_not_run: usize,
    /// Per scenario: the aims a generated game was played with
    /// (docs/coverage.md), for `--rerun-failed`'s record.
    pub aims: Vec<Option<crate::coverage::Aims>>,
}

/// Run all scenarios but those with a skip reason (see
/// [`default_run_skips`]) on the pool; results come back in input order.
/// `observe` sees each scenario start and finish, from the pool's threads.
///
/// Unless `--keep-going`, the first [`STARTUP_SAMPLE`] scenarios to run
/// (in suite order) decide alone whether the rest run: scenarios after them
/// wait for their verdicts, so the decision and the scenarios run do not
/// depend on `--jobs` or timing. When all of them failed at start-up with
/// the same rule, the rest are not run. After protocheck's stop
/// (`cfg.stop`, which its signal handler sets before it kills every bot)
/// no scenario starts; one whose bot was killed by it, and the rest, are
/// `Interrupted`. Once the budget (`rules.budget`) is spent no scenario
/// starts; one that had not ended by then, and the rest, are skipped as not
/// run (see [`budget`]).
pub fn run_all(
    scenarios: &[Scenario],
    skip_reasons: &[Option<String>],
    game: &dyn Game,
    cfg: &RunConfig,
    jobs: usize,
    rules: StopRules,
    observe: &(dyn Fn(&SuiteEvent) + Sync),
) -> Result<SuiteRuns, SpawnError> {
    run_all_aimed(
        scenarios,
        skip_reasons,
        game,
        cfg,
        jobs,
        rules,
        &[],
        observe,
    )
}

/// [`run_all`], with the aims of some generated games given in advance
/// (`aimed`, by index: `--rerun-failed` plays a failed game again with the
/// aims it failed with; `None`, or past the end: from the games before it).
#[allow(clippy::too_many_arguments)]
pub fn run_all_aimed(
    scenarios: &[Scenario],
    skip_reasons: &[Option<String>],
    game: &dyn Game,
    cfg: &RunConfig,
    jobs: usize,
    rules: StopRules,
    aimed: &[Option<crate::coverage::Aims>],
    observe: &(dyn Fn(&SuiteEvent) + Sync),
) -> Result<SuiteRuns, SpawnError> {
    let stop = &cfg.stop;
    let pool = Pool::new(jobs.max(1).min(scenarios.len().max(1)), stop);
    let spawn_error: Mutex<Option<SpawnError>> = Mutex::new(None);
    let gate = (!rules.keep_going && !rules.fail_fast)
        .then(|| StartupGate::new(skip_reasons))
        .flatten()
        .map(Arc::new);
    // A stop, and a halt, also reach the scenarios waiting at the gate.
    let _gate_sees_the_stop = gate.clone().map(|g| stop.watch(move |_| g.wake()));
    let halt = || {
        pool.halt();
        if let Some(gate) = &gate {
            gate.wake();
        }
    };
    let aim_gate = aims::AimGate::pinned(scenarios, aimed);
    let spent = AtomicBool::new(false);
    let budget_not_run = AtomicUsize::new(0);
    let run_one = |i: usize| -> Option<ScenarioRun> {
        let scenario = &scenarios[i];
        // However it ends, the generated games waiting for it hear of it.
        let mut aim_end = aims::Ending::new(&aim_gate, i);
        // Whatever happens to a scenario of the sample, the gate hears of
        // it (a scenario that did not run counts as no start-up failure).
        let mut verdict = gate.as_deref().map(|gate| GateVerdict {
            gate,
            index: i,
            startup_failure: None,
        });
        if let Some(Some(reason)) = skip_reasons.get(i) {
            let run = skipped(scenario, reason);
            aim_end.ended(&run.result.coverage);
            observe(&SuiteEvent::Finished {
                index: i,
                status: Status::Skipped,
            });
            return Some(run);
        }
        if rules.budget.is_some_and(|b| b.spent()) {
            spent.store(true, Ordering::SeqCst);
            halt();
            return None;
        }
        if let Some(gate) = &gate
            && !gate.may_start(i, &|| pool.halted())
        {
            // The slot stays empty: filled in below with why.
            halt();
            return None;
        }
        // A generated game waits for the games whose coverage it aims past
        // (see `aims`).
        let aims = if is_generated(scenario) {
            let stopping =
                || pool.halted() || stop.is_stopped() || rules.budget.is_some_and(|b| b.spent());
            match aim_gate.wait(i, &stopping) {
                Some(aims) => Some(aims),
                None => {
                    if rules.budget.is_some_and(|b| b.spent()) {
                        spent.store(true, Ordering::SeqCst);
                        halt();
                    }
                    return None;
                }
            }
        } else {
            None
        };
        if rules.budget.is_some_and(|b| b.spent()) {
            // Spent while it waited for the gate.
            spent.store(true, Ordering::SeqCst);
            halt();
            return None;
        }
        if pool.halted() {
            return None;
        }
        observe(&SuiteEvent::Started {
            index: i,
            name: &scenario.name,
        });
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            controller::run_aimed(scenario, game, cfg, aims)
        }));
        let ended = Instant::now();
        let mut run = match outcome {
            Ok(Ok(run)) => run,
            // Refused because protocheck is being stopped.
            Ok(Err(e)) if e.interrupted() => return None,
            Ok(Err(e)) => {
                *spawn_error.lock().unwrap() = Some(e);
                halt();
                return None;
            }
            Err(panic) => internal_error(scenario, &crate::pool::panic_message(&*panic)),
        };
        let interrupt = stop.interruption().filter(|i| i.at <= ended);
        let over_budget = rules.budget.filter(|b| !b.counts(ended));
        match (interrupt, over_budget) {
            // Whichever came first cut it.
            (Some(i), Some(b)) if b.deadline <= i.at => budget::cut(&mut run, &b),
            (Some(interrupt), _) => {
                // The bot died (or was judged) while protocheck was killing
                // it: nothing here is the bot's doing.
                cut_short(&mut run, interrupt.signal);
            }
            (None, Some(b)) => budget::cut(&mut run, &b),
            (None, None) => {}
        }
        if over_budget.is_some() && run.result.status == Status::Skipped {
            budget_not_run.fetch_add(1, Ordering::SeqCst);
            spent.store(true, Ordering::SeqCst);
            halt();
        }
        if rules.fail_fast
            && !matches!(
                run.result.status,
                Status::Passed | Status::Interrupted | Status::Skipped
            )
        {
            halt();
        }
        if let Some(verdict) = &mut verdict {
            verdict.startup_failure = run.startup_failure;
        }
        drop(verdict);
        aim_end.ended(&run.result.coverage);
        observe(&SuiteEvent::Finished {
            index: i,
            status: run.result.status,
        });
        Some(run)
    };
    let workers = budget::Workers::new(1);
    let outcomes = std::thread::scope(|scope| {
        if let Some(budget) = &rules.budget {
            scope.spawn(|| {
                budget::watch(budget, &workers, &spent, &halt, &budget::kill_running_bots)
            });
        }
        // Left when the pool is done, before the scope waits for the watcher.
        let _leaving = workers.leaving();
        pool.run(scenarios.len(), |job| run_one(job.index), &mut |_| {})
    });
    if let Some(e) = spawn_error.into_inner().unwrap() {
        return Err(e);
    }
    let slots: Vec<Option<ScenarioRun>> = outcomes
        .into_iter()
        .zip(scenarios)
        .map(|(outcome, s)| match outcome {
            Outcome::Done(run) => run,
            Outcome::NotRun => None,
            Outcome::Panicked(why) => Some(internal_error(s, &why)),
        })
        .collect();
    let mut startup_stop = gate.and_then(|g| g.stopped());
    let interrupted = stop.interruption();
    // The budget was spent before any signal came: what did not run, did
    // not for want of time.
    let spent_first = rules
        .budget
        .filter(|b| spent.load(Ordering::SeqCst) && interrupted.is_none_or(|i| b.deadline <= i.at));
    let mut budget_not_run = budget_not_run.into_inner();
    let runs: Vec<ScenarioRun> = slots
        .into_iter()
        .zip(scenarios)
        .zip(skip_reasons.iter().chain(std::iter::repeat(&None)))
        .map(|((slot, s), own_skip)| {
            slot.unwrap_or_else(|| {
                if let Some(reason) = own_skip {
                    // Outside the default run: it would not have run anyway.
                    return skipped(s, reason);
                }
                // The early stop first: it was decided before anything
                // after the sample could start, whatever came later.
                if let Some(stop) = &mut startup_stop {
                    stop.not_run += 1;
                    skipped(s, &stop.reason())
                } else if let Some(budget) = &spent_first {
                    budget_not_run += 1;
                    skipped(s, &budget.reason())
                } else if let Some(interrupt) = interrupted {
                    let mut run = ScenarioRun::not_run(s, Status::Interrupted);
                    run.result.skip_reason = Some(format!(
                        "not run: protocheck was stopped by {}",
                        process::signal_name(interrupt.signal)
                    ));
                    run
                } else {
                    skipped(s, "not run (--fail-fast after an earlier failure)")
                }
            })
        })
        .collect();
    // Nothing after the sample (only skipped scenarios): nothing was left out.
    let startup_stop = startup_stop.filter(|s| s.not_run > 0);
    Ok(SuiteRuns {
        runs,
        startup_stop,
        budget_not_run,
        aims: aim_gate.given(),
    })
}

/// A scenario whose bot protocheck killed on a signal: no verdict, no
/// findings; the transcript so far stays, with a note saying why it ends.
fn cut_short(run: &mut ScenarioRun, signal: i32) {
    let name = process::signal_name(signal);
    let result = &mut run.result;
    result.status = Status::Interrupted;
    result.error = None;
    result.skip_reason = Some(format!(
        "interrupted: protocheck was stopped by {name} while this scenario ran"
    ));
    result.violations.clear();
    result.omitted.clear();
    result.frames.clear();
    result.replay = None;
    result.transcript.push(TranscriptLine {
        dir: Direction::Note,
        text: format!("protocheck was stopped by {name} and killed the bot"),
        ms: result.duration_ms,
    });
    run.startup_failure = None;
}

fn internal_error(scenario: &Scenario, what: &str) -> ScenarioRun {
    let mut run = ScenarioRun::not_run(scenario, Status::Error);
    run.result.error = Some(format!(
        "internal error in protocheck (please report it): {what}"
    ));
    run
}

fn skipped(scenario: &Scenario, reason: &str) -> ScenarioRun {
    let mut run = ScenarioRun::not_run(scenario, Status::Skipped);
    run.result.skip_reason = Some(reason.to_string());
    run
}

/// Write a failing generated game as a scenario file that replays it move
/// for move (the opponent's choices are written out, not re-drawn).
pub fn save_failure(
    dir: &Path,
    scenario: &Scenario,
    run: &ScenarioRun,
) -> std::io::Result<PathBuf> {
    let about = format!(
        "Replay of {} ({}): protocheck's moves as played; the bot's moves are its own.",
        scenario.name, scenario.source
    );
    write_scenario(dir, &scenario.name, scenario, &about, &run.replay_steps)
}

/// Write the shortest failing game shrinking found (see `crate::shrink`)
/// beside the saved original, as `<name>-shrunk.yaml`; `played` is the
/// scenario it was played as (its seat may differ from the original's).
pub fn save_shrunk(
    dir: &Path,
    original: &Scenario,
    shrunk: &crate::shrink::Shrunk,
) -> std::io::Result<PathBuf> {
    let about = format!(
        "Shrunk from {} ({}): a shorter game that fails with {} too ({} moves instead of {}); protocheck's moves as played, the bot's are its own.",
        original.name, original.source, shrunk.rule, shrunk.to, shrunk.from
    );
    let name = format!("{}-shrunk", original.name);
    write_scenario(dir, &name, &shrunk.scenario, &about, &shrunk.steps)
}

fn write_scenario(
    dir: &Path,
    name: &str,
    scenario: &Scenario,
    about: &str,
    steps: &[crate::scenario::Step],
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let doc = ScenarioOut {
        name,
        game: &scenario.game,
        about: Some(about),
        rules: &scenario.rules,
        options: &scenario.options,
        steps,
    };
    let text = serde_saphyr::to_string(&doc).map_err(|e| std::io::Error::other(e.to_string()))?;
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, text)?;
    Ok(path)
}

/// True for scenarios produced by `--games`.
pub fn is_generated(s: &Scenario) -> bool {
    matches!(s.origin, Origin::Generated { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn filter_is_substring_or_glob() {
        assert!(matches_filter("north-opening-3", "opening"));
        assert!(matches_filter("north-opening-3", "north-*-3"));
        assert!(!matches_filter("north-opening-3", "south*"));
        assert!(matches_filter(
            "generated-001-south-random",
            "generated-00?-*"
        ));
    }
}
