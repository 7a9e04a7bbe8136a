//! A single run: load the scenarios, select and lint them, run them
//! against the bot, render the report, choose the exit status. The command
//! line gives it a `RunSpec`; `grade` checks its run options with
//! `check_selection`.

pub mod bot_path;
pub mod last_failed;
pub mod progress;
mod replay;
mod reports;
mod spec;

pub use spec::{ColorChoice, RunSpec};

use crate::config::RunConfigBuilder;
use crate::controller::RunConfig;
use crate::fatal::{BotError, Fatal, UsageError};
use crate::games::{self, Game};
use crate::outcome::{ScenarioResult, Status, Totals};
use crate::report::stdout::emit;
use crate::report::{self, RunInfo};
use crate::scenario::{self, LoadError, Options, Scenario};
use crate::suite;
use crate::transport::BotCommand;
use last_failed::LastFailed;
use std::path::PathBuf;

/// The game `name` names; a usage error (with the closest name) otherwise.
pub fn game_named(name: Option<&str>) -> Result<&'static dyn Game, Fatal> {
    let name = name.ok_or_else(|| UsageError::GameRequired {
        known: games::ids().join(", "),
    })?;
    games::by_id(name).ok_or_else(|| {
        let ids = games::ids();
        let hint = scenario::load::nearest(name, &ids)
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        Fatal::from(UsageError::UnknownGame {
            name: name.into(),
            hint,
            known: ids.join(", "),
        })
    })
}

/// What `--list` checks before it lists, without listing: the game, the
/// scenario files, the game options, `--require-coverage` and that the
/// selection is not empty. `grade` asks it of its run options once, before
/// any bot runs.
pub fn check_selection(spec: &RunSpec) -> Result<(), Fatal> {
    let loaded = load_stage(spec)?;
    check_required_ids(spec, loaded.game)?;
    select_and_lint(spec, loaded).map(drop)
}

/// Run the scenarios `spec` selects against its bot (or list or check
/// them); the exit status.
pub fn run(spec: &RunSpec, stop: &crate::pool::StopToken) -> Result<i32, Fatal> {
    let mut loaded = load_stage(spec)?;
    let game = loaded.game;
    let last_failed = LastFailed::open(spec, game.id(), &loaded.scenarios);
    if spec.rerun_failed {
        let options = given_options(spec);
        last_failed.select(&mut loaded.scenarios, |count, seed| {
            game.generate(count, seed, &options)
        });
    }
    check_required_ids(spec, game)?;
    let selected = select_and_lint(spec, loaded)?;
    if let Some(listing) = list_or_check(spec, &selected) {
        emit(&listing);
        return Ok(0);
    }
    let setup = run_setup(spec, game, stop).map_err(|e| reports::unstartable(spec, e))?;
    // A failed generated game is played again with the aims it failed with.
    let aimed: Vec<_> = selected
        .scenarios
        .iter()
        .map(|s| spec.rerun_failed.then(|| last_failed.aims_of(s)).flatten())
        .collect();
    let (results, aims) = run_stage(spec, game, &selected, &setup, &aimed)
        .map_err(|e| reports::unstartable(spec, e))?;
    last_failed.record(&selected.scenarios, &results, &aims);
    let totals = report_stage(spec, game, &selected, &setup, &results)?;
    let code = exit_code(&totals, stop.is_stopped());
    if code == 0 && !coverage_met(spec, game, &results) {
        return Ok(1);
    }
    Ok(code)
}

/// `--require-coverage` names only rules and situations the game knows:
/// a typo must not pass as "never reached" (nor fail every run).
fn check_required_ids(spec: &RunSpec, game: &dyn crate::games::Game) -> Result<(), Fatal> {
    let known = crate::coverage::Summary::new(game, &Default::default());
    let unknown: Vec<&str> = spec
        .require_coverage
        .iter()
        .map(String::as_str)
        .filter(|id| !known.knows(id))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    Err(Fatal::usage(format!(
        "--require-coverage: {} {} no rule or situation of {} (`protocheck rules --game {}` lists its rules; the coverage table of -v lists both)",
        unknown.join(", "),
        if unknown.len() == 1 { "is" } else { "are" },
        game.id(),
        game.id()
    )))
}

/// Whether the run checked every rule and reached every situation
/// `--require-coverage` names; says on stderr what it missed.
fn coverage_met(spec: &RunSpec, game: &dyn crate::games::Game, results: &[ScenarioResult]) -> bool {
    if spec.require_coverage.is_empty() {
        return true;
    }
    let summary = crate::coverage::Summary::new(game, &crate::coverage::Coverage::of(results));
    let missed: Vec<String> = summary
        .missing(&spec.require_coverage)
        .into_iter()
        .map(
            |id| match summary.rows.iter().find(|r| r.id == id).map(|r| r.kind) {
                Some(crate::coverage::RowKind::Situation) => format!("{id} (situation)"),
                _ => format!("{id} (rule)"),
            },
        )
        .collect();
    if missed.is_empty() {
        return true;
    }
    eprintln!(
        "protocheck: --require-coverage: this run never {}: {}",
        if missed.len() == 1 {
            "checked or reached"
        } else {
            "checked or reached these"
        },
        missed.join(", ")
    );
    false
}

/// The scenarios of a run, loaded, for one game, with the command line's
/// game options filled in and the generated games added.
struct Loaded {
    scenarios: Vec<Scenario>,
    errors: Vec<LoadError>,
    game: &'static dyn crate::games::Game,
    seed: u64,
}

fn load_stage(spec: &RunSpec) -> Result<Loaded, Fatal> {
    let (mut scenarios, errors) = load(
        &spec.scenarios,
        spec.game.as_deref(),
        spec.scenarios.is_empty() || spec.with_builtin,
    )?;
    let game = match &spec.game {
        Some(g) => game_named(Some(g))?,
        None => {
            let first = scenarios
                .first()
                .ok_or_else(|| Fatal::usage("--game is required"))?;
            if scenarios.iter().any(|s| s.game != first.game) {
                return Err(Fatal::usage(
                    "the scenarios are for different games: choose one with --game",
                ));
            }
            game_named(Some(&first.game))?
        }
    };
    let given_options = given_options(spec);
    // Options the game does not take are one usage error, not one error per
    // scenario that inherits them.
    if let Err(e) = game.session(&given_options) {
        return Err(Fatal::usage(format!("--game {}: {e}", game.id())));
    }
    for s in &mut scenarios {
        fill_unset(&mut s.options, &given_options);
    }
    let seed = spec.seed.unwrap_or_else(fresh_seed);
    if let Some(n) = spec.games {
        scenarios.extend(game.generate(n, seed, &given_options));
    }
    Ok(Loaded {
        scenarios,
        errors,
        game,
        seed,
    })
}

/// The scenarios that run (or are listed), all linted, with why some are
/// skipped this time.
struct Selected {
    scenarios: Vec<Scenario>,
    skip_reasons: Vec<Option<String>>,
    /// How many were selected before `--partition` took this shard.
    count: usize,
    seed: u64,
}

fn select_and_lint(spec: &RunSpec, loaded: Loaded) -> Result<Selected, Fatal> {
    let Loaded {
        mut scenarios,
        mut errors,
        game,
        seed,
    } = loaded;
    if let Some(f) = &spec.filter {
        scenarios.retain(|s| suite::matches_filter(&s.name, f));
    }
    errors.extend(suite::duplicate_names(&scenarios));
    errors.extend(suite::lint_all(&scenarios, game));
    if !errors.is_empty() {
        return Err(Fatal::Scenarios(errors));
    }
    // Sharded after linting, so every shard reports the same scenario errors.
    let selected = scenarios.len();
    if let Some(p) = spec.partition {
        scenarios = p.select(scenarios, |s| &s.name);
    }
    let skip_reasons = suite::default_run_skips(
        &scenarios,
        game,
        spec.all_sizes || game.asks_beyond_default_run(&given_options(spec)),
    );
    // An empty shard is normal in a CI matrix wider than the suite; an
    // empty selection is not, whether listed, checked or run.
    if selected == 0 {
        return Err(Fatal::Usage(UsageError::NothingSelected));
    }
    Ok(Selected {
        scenarios,
        skip_reasons,
        count: selected,
        seed,
    })
}

/// `--list` and `--check-scenarios` end here, with what they print.
fn list_or_check(spec: &RunSpec, selected: &Selected) -> Option<String> {
    let scenarios = &selected.scenarios;
    if spec.list {
        let mut text = String::new();
        for (s, skip) in scenarios.iter().zip(&selected.skip_reasons) {
            text += &match skip {
                Some(reason) => format!("{:<44} {}  (skipped: {reason})\n", s.name, s.source),
                None => format!("{:<44} {}\n", s.name, s.source),
            };
        }
        return Some(text);
    }
    if spec.check_scenarios {
        return Some(format!(
            "{} scenario{} checked, no problems\n",
            scenarios.len(),
            if scenarios.len() == 1 { "" } else { "s" }
        ));
    }
    None
}

/// How the bot is run: its command, the run's settings, the worker count.
struct RunSetup {
    bot: BotCommand,
    cfg: RunConfig,
    jobs: usize,
    /// The grading policy and where it came from.
    policy: (crate::grading::policy::Policy, String),
}

fn run_setup(
    spec: &RunSpec,
    game: &dyn crate::games::Game,
    stop: &crate::pool::StopToken,
) -> Result<RunSetup, Fatal> {
    let tcp_game = game.facts().wire.transport == crate::games::Transport::Tcp;
    let bot = if spec.no_spawn && spec.bot.is_none() && spec.bot_cmd.is_none() {
        BotCommand {
            program: "(client started by the user)".into(),
            args: Vec::new(),
            env: Default::default(),
            workdir: None,
        }
    } else {
        bot_command(spec)?
    };
    if (spec.no_spawn || spec.port != 0) && !tcp_game {
        return Err(Fatal::usage(format!(
            "--port and --no-spawn are for games over TCP (evolution), not {}",
            game.id()
        )));
    }
    let port = if spec.no_spawn && spec.port == 0 {
        // One port for the whole run, so the user starts every client the same way.
        crate::transport::tcp::LoopbackListener::bind(0)
            .and_then(|l| l.port())
            .map_err(|e| Fatal::Bot(BotError::Listen(e)))?
    } else {
        spec.port
    };
    let cfg = RunConfigBuilder::new(bot.clone(), &spec.limits, stop)
        .timings(spec.timings)
        .strict(spec.strict)
        .tcp(crate::controller::TcpConfig {
            port,
            no_spawn: spec.no_spawn,
        })
        .pictures(
            spec.pictures
                || reports::requests(spec)?
                    .iter()
                    .any(|r| r.format == report::Format::Html),
        )
        .build();
    // Before any bot starts: `--sandbox require` on a system without every
    // layer stops here (the answer is the kernel's, asked once and kept).
    crate::transport::sandbox::settle(&cfg.limits.sandbox)
        .map_err(|e| Fatal::usage(e.to_string()))?;
    let jobs = crate::config::jobs(spec.jobs);
    // One listener per port: a fixed port (or a client the user starts for
    // each scenario) means one scenario at a time.
    let jobs = if tcp_game && (port != 0 || spec.no_spawn) {
        1
    } else {
        jobs
    };
    Ok(RunSetup {
        bot,
        cfg,
        jobs,
        policy: reports::policy(spec)?,
    })
}

/// Run the selected scenarios; a failing generated game gets its replay.
fn run_stage(
    spec: &RunSpec,
    game: &dyn crate::games::Game,
    selected: &Selected,
    setup: &RunSetup,
    aimed: &[Option<crate::coverage::Aims>],
) -> Result<(Vec<ScenarioResult>, Vec<Option<crate::coverage::Aims>>), Fatal> {
    let (scenarios, skip_reasons) = (&selected.scenarios, &selected.skip_reasons);
    let RunSetup { bot, cfg, jobs, .. } = setup;
    let (seed, jobs) = (selected.seed, *jobs);
    let progress = progress::Progress::start(scenarios.len());
    // From here a signal stops the suite and the report is still written.
    cfg.stop.set_on_stop(crate::pool::OnStop::Report);
    let runs = suite::run_all_aimed(
        scenarios,
        skip_reasons,
        game,
        cfg,
        jobs,
        suite::StopRules {
            fail_fast: spec.fail_fast,
            keep_going: spec.keep_going,
            budget: spec.bot_time_limit.map(suite::budget::Budget::starting_now),
        },
        aimed,
        &|event| progress.record(event),
    );
    progress.finish();
    let suite::SuiteRuns {
        runs,
        startup_stop,
        budget_not_run,
        aims,
    } = runs.map_err(|e| Fatal::Bot(e.into()))?;
    if let (Some(limit), 1..) = (spec.bot_time_limit, budget_not_run) {
        eprintln!(
            "protocheck: stopped: --bot-time-limit {} spent; {budget_not_run} not run",
            suite::budget::show(limit)
        );
    }
    if let Some(stop) = &startup_stop {
        eprintln!(
            "protocheck: stopped early: the first {} scenarios all failed at start-up with {}; {} not run (--keep-going runs them all)",
            stop.sample, stop.rule, stop.not_run
        );
    }
    let mut results: Vec<ScenarioResult> = Vec::with_capacity(runs.len());
    for (scenario, run) in scenarios.iter().zip(runs) {
        let mut result = run.result.clone();
        if result.status == Status::Failed && suite::is_generated(scenario) {
            replay::attach_replay(spec, bot, seed, scenario, &run, &mut result)?;
            replay::shrink_saved(spec, game, cfg, scenario, &run, &mut result)?;
        }
        results.push(result);
    }
    Ok((results, aims))
}

/// Render the report where it goes; the totals decide the exit status.
fn report_stage(
    spec: &RunSpec,
    game: &dyn crate::games::Game,
    selected: &Selected,
    setup: &RunSetup,
    results: &[ScenarioResult],
) -> Result<Totals, Fatal> {
    // A scenario outside the game's default run is skipped alike for every
    // bot: it is no part of the score.
    let counted: Vec<bool> = selected.skip_reasons.iter().map(Option::is_none).collect();
    let (bot, seed, selected) = (&setup.bot, selected.seed, selected.count);
    let info = RunInfo {
        version: crate::build_info::LONG.to_string(),
        game: game.id().to_string(),
        bot: bot.display(),
        generated: spec.games.map(|n| (n, seed)),
        strict: spec.strict,
        partition: spec.partition.map(|p| (p.to_string(), selected)),
        workspace: crate::actions::workspace(),
        environment: spec
            .env
            .clone()
            .note_here(crate::transport::environment::game_variables(
                game.facts().wire.transport,
            )),
        sandbox: crate::transport::sandbox::settle(&setup.cfg.limits.sandbox)
            .map_err(|e| Fatal::usage(e.to_string()))?,
        score: Some({
            let mut score =
                crate::grading::score(&setup.policy.0, &setup.policy.1, results, &counted);
            score.hide_until(std::time::SystemTime::now());
            score
        }),
        coverage: Some(crate::coverage::Summary::new(
            game,
            &crate::coverage::Coverage::of(results),
        )),
    };
    reports::write(spec, &info, results)?;
    Ok(Totals::of(results))
}

/// 2: a scenario error, or protocheck was stopped; 1: the bot failed.
fn exit_code(totals: &Totals, stopped: bool) -> i32 {
    if totals.errors > 0 || stopped {
        2
    } else if totals.failed > 0 {
        1
    } else {
        0
    }
}

/// The game options given on the command line.
fn given_options(spec: &RunSpec) -> Options {
    Options {
        game: spec.game_options.clone(),
        ..Options::default()
    }
}

pub fn lint_only(
    scenarios: &[Scenario],
    mut errors: Vec<LoadError>,
    game_id: Option<&str>,
) -> Result<i32, Fatal> {
    errors.extend(suite::duplicate_names(scenarios));
    for s in scenarios {
        let game = game_named(Some(game_id.unwrap_or(&s.game)))?;
        errors.extend(crate::suite::lint::lint(s, game));
    }
    if !errors.is_empty() {
        return Err(Fatal::Scenarios(errors));
    }
    emit(&format!(
        "{} scenario{} checked, no problems\n",
        scenarios.len(),
        if scenarios.len() == 1 { "" } else { "s" }
    ));
    Ok(0)
}

/// Load scenario files, plus the built-in suite when asked. Files that do
/// not parse are returned as errors, to be reported together with what lint
/// finds in the others.
pub fn load(
    paths: &[PathBuf],
    game: Option<&str>,
    builtin: bool,
) -> Result<(Vec<Scenario>, Vec<LoadError>), Fatal> {
    let mut scenarios = Vec::new();
    let mut errors = Vec::new();
    if builtin {
        let game = game_named(game)?;
        scenarios
            .extend(scenario::builtin::suite(game.id()).map_err(|e| Fatal::Scenarios(vec![e]))?);
    }
    for path in paths {
        let files = scenario::load::scenario_files(path).map_err(|e| Fatal::Scenarios(vec![e]))?;
        if files.is_empty() {
            return Err(Fatal::usage(format!(
                "no *.yaml scenario files under {}",
                path.display()
            )));
        }
        for file in files {
            match scenario::load::load_file(&file, game) {
                Ok(s) => scenarios.push(s),
                Err(e) => errors.push(e),
            }
        }
    }
    Ok((scenarios, errors))
}

/// Command-line game options fill what a scenario leaves unset; a scenario
/// that pins a value (its scripted states depend on it) keeps it.
fn fill_unset(options: &mut Options, spec: &Options) {
    for (name, value) in &spec.game {
        options
            .game
            .entry(name.clone())
            .or_insert_with(|| value.clone());
    }
}

fn bot_command(spec: &RunSpec) -> Result<BotCommand, Fatal> {
    let words: Vec<String> = match (&spec.bot, &spec.bot_cmd) {
        (Some(bot), None) => std::iter::once(bot.clone())
            .chain(spec.bot_args.iter().cloned())
            .collect(),
        (None, Some(cmd)) => {
            let mut w =
                shell_words::split(cmd).map_err(|e| Fatal::usage(format!("--bot-cmd: {e}")))?;
            w.extend(spec.bot_args.iter().cloned());
            w
        }
        _ => {
            return Err(Fatal::usage(
                "no bot given: protocheck [OPTIONS] --game <GAME> <BOT> (or --bot-cmd '<command line>')",
            ));
        }
    };
    let (program, args) = words
        .split_first()
        .ok_or_else(|| Fatal::usage("--bot-cmd is empty"))?;
    Ok(BotCommand {
        program: bot_path::resolve(program).map_err(|e| BotError::Program(e.into()))?,
        args: args.to_vec(),
        env: crate::transport::environment::BotEnv {
            policy: spec.env.clone(),
            game: Vec::new(),
        },
        workdir: None,
    })
}

fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (nanos as u64 ^ u64::from(std::process::id())) % 1_000_000
}
