//! The suite: select scenarios, lint them all before any bot runs, run them
//! on `--jobs` worker threads (one bot process per scenario), and save failing
//! generated games as replayable scenario files.

use crate::controller::{self, RunConfig, ScenarioRun};
use crate::games::Game;
use crate::outcome::Status;
use crate::scenario::model::ScenarioOut;
use crate::scenario::{LoadError, Origin, Scenario};
use crate::transport::SpawnError;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
    scenarios
        .iter()
        .flat_map(|s| controller::lint::lint(s, game))
        .collect()
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

/// Run all scenarios but those with a skip reason (see
/// [`default_run_skips`]); results come back in input order. `observe` sees
/// each scenario start and finish, from the worker threads.
pub fn run_all(
    scenarios: &[Scenario],
    skip_reasons: &[Option<String>],
    game: &dyn Game,
    cfg: &RunConfig,
    jobs: usize,
    fail_fast: bool,
    observe: &(dyn Fn(&SuiteEvent) + Sync),
) -> Result<Vec<ScenarioRun>, SpawnError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let slots: Vec<Mutex<Option<ScenarioRun>>> =
        scenarios.iter().map(|_| Mutex::new(None)).collect();
    let spawn_error: Mutex<Option<SpawnError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(scenarios.len().max(1)) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(scenario) = scenarios.get(i) else {
                        return;
                    };
                    if let Some(Some(reason)) = skip_reasons.get(i) {
                        *slots[i].lock().unwrap() = Some(skipped(scenario, reason));
                        observe(&SuiteEvent::Finished {
                            index: i,
                            status: Status::Skipped,
                        });
                        continue;
                    }
                    observe(&SuiteEvent::Started {
                        index: i,
                        name: &scenario.name,
                    });
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        controller::run(scenario, game, cfg)
                    }));
                    let run = match outcome {
                        Ok(Ok(run)) => run,
                        Ok(Err(e)) => {
                            *spawn_error.lock().unwrap() = Some(e);
                            stop.store(true, Ordering::SeqCst);
                            return;
                        }
                        Err(panic) => internal_error(scenario, &panic),
                    };
                    if fail_fast && run.result.status != Status::Passed {
                        stop.store(true, Ordering::SeqCst);
                    }
                    observe(&SuiteEvent::Finished {
                        index: i,
                        status: run.result.status,
                    });
                    *slots[i].lock().unwrap() = Some(run);
                }
            });
        }
    });
    if let Some(e) = spawn_error.into_inner().unwrap() {
        return Err(e);
    }
    Ok(slots
        .into_iter()
        .zip(scenarios)
        .map(|(slot, s)| {
            slot.into_inner()
                .unwrap()
                .unwrap_or_else(|| skipped(s, "not run (--fail-fast after an earlier failure)"))
        })
        .collect())
}

fn internal_error(scenario: &Scenario, panic: &Box<dyn std::any::Any + Send>) -> ScenarioRun {
    let what = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into());
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
    std::fs::create_dir_all(dir)?;
    let about = format!(
        "Replay of {} ({}): protocheck's moves as played; the bot's moves are its own.",
        scenario.name, scenario.source
    );
    let doc = ScenarioOut {
        name: &scenario.name,
        game: &scenario.game,
        about: Some(&about),
        options: &scenario.options,
        steps: &run.replay_steps,
    };
    let text = serde_saphyr::to_string(&doc).map_err(|e| std::io::Error::other(e.to_string()))?;
    let path = dir.join(format!("{}.yaml", scenario.name));
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
