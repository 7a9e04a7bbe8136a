//! The main run of the command line: load the scenarios, select and lint
//! them, run them against the bot, render the report, choose the exit status.

use super::last_failed::LastFailed;
use super::{Cli, Fatal, emit, game_named};
use crate::controller::RunConfig;
use crate::outcome::{ScenarioResult, Status, Totals};
use crate::report::{self, RunInfo};
use crate::scenario::{self, LoadError, Options, Scenario};
use crate::suite;
use crate::transport::BotCommand;
use std::path::PathBuf;

pub(super) fn run(cli: Cli) -> Result<i32, Fatal> {
    let mut loaded = load_stage(&cli)?;
    let game = loaded.game;
    let last_failed = LastFailed::open(&cli, game.id(), &loaded.scenarios);
    if cli.rerun_failed {
        let options = cli_options(&cli);
        last_failed.select(&mut loaded.scenarios, |count, seed| {
            game.generate(count, seed, &options)
        });
    }
    check_required_ids(&cli, game)?;
    let selected = select_and_lint(&cli, loaded)?;
    if let Some(listing) = list_or_check(&cli, &selected) {
        emit(&listing);
        return Ok(0);
    }
    let setup = run_setup(&cli, game).map_err(|e| super::reports::unstartable(&cli, e))?;
    let results = run_stage(&cli, game, &selected, &setup)
        .map_err(|e| super::reports::unstartable(&cli, e))?;
    last_failed.record(&selected.scenarios, &results);
    let totals = report_stage(&cli, game, &selected, &setup, &results)?;
    let code = exit_code(&totals);
    if code == 0 && !coverage_met(&cli, game, &results) {
        return Ok(1);
    }
    Ok(code)
}

/// `--require-coverage` names only rules and situations the game knows:
/// a typo must not pass as "never reached" (nor fail every run).
fn check_required_ids(cli: &Cli, game: &dyn crate::games::Game) -> Result<(), Fatal> {
    let known = crate::coverage::Summary::new(game, &Default::default());
    let unknown: Vec<&str> = cli
        .require_coverage
        .iter()
        .map(String::as_str)
        .filter(|id| !known.knows(id))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    Err(Fatal::Usage(format!(
        "--require-coverage: {} {} no rule or situation of {} (`protocheck rules --game {}` lists its rules; the coverage table of -v lists both)",
        unknown.join(", "),
        if unknown.len() == 1 { "is" } else { "are" },
        game.id(),
        game.id()
    )))
}

/// Whether the run checked every rule and reached every situation
/// `--require-coverage` names; says on stderr what it missed.
fn coverage_met(cli: &Cli, game: &dyn crate::games::Game, results: &[ScenarioResult]) -> bool {
    if cli.require_coverage.is_empty() {
        return true;
    }
    let summary = crate::coverage::Summary::new(game, &crate::coverage::Coverage::of(results));
    let missed: Vec<String> = summary
        .missing(&cli.require_coverage)
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

fn load_stage(cli: &Cli) -> Result<Loaded, Fatal> {
    let (mut scenarios, errors) = load(
        &cli.scenarios,
        cli.game.as_deref(),
        cli.scenarios.is_empty() || cli.with_builtin,
    )?;
    let game = match &cli.game {
        Some(g) => game_named(Some(g))?,
        None => {
            let first = scenarios
                .first()
                .ok_or_else(|| Fatal::Usage("--game is required".into()))?;
            if scenarios.iter().any(|s| s.game != first.game) {
                return Err(Fatal::Usage(
                    "the scenarios are for different games: choose one with --game".into(),
                ));
            }
            game_named(Some(&first.game))?
        }
    };
    let cli_options = cli_options(cli);
    // Options the game does not take are one usage error, not one error per
    // scenario that inherits them.
    if let Err(e) = game.session(&cli_options) {
        return Err(Fatal::Usage(format!("--game {}: {e}", game.id())));
    }
    for s in &mut scenarios {
        fill_unset(&mut s.options, &cli_options);
    }
    let seed = cli.seed.unwrap_or_else(fresh_seed);
    if let Some(n) = cli.games {
        scenarios.extend(game.generate(n, seed, &cli_options));
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

fn select_and_lint(cli: &Cli, loaded: Loaded) -> Result<Selected, Fatal> {
    let Loaded {
        mut scenarios,
        mut errors,
        game,
        seed,
    } = loaded;
    if let Some(f) = &cli.filter {
        scenarios.retain(|s| suite::matches_filter(&s.name, f));
    }
    errors.extend(suite::duplicate_names(&scenarios));
    errors.extend(suite::lint_all(&scenarios, game));
    if !errors.is_empty() {
        return Err(Fatal::Scenarios(errors));
    }
    // Sharded after linting, so every shard reports the same scenario errors.
    let selected = scenarios.len();
    if let Some(p) = cli.partition {
        scenarios = p.select(scenarios, |s| &s.name);
    }
    let skip_reasons = suite::default_run_skips(
        &scenarios,
        game,
        cli.all_sizes || game.asks_beyond_default_run(&cli_options(cli)),
    );
    // An empty shard is normal in a CI matrix wider than the suite; an
    // empty selection is not, whether listed, checked or run.
    if selected == 0 {
        return Err(Fatal::Usage("no scenario selected (check --filter)".into()));
    }
    Ok(Selected {
        scenarios,
        skip_reasons,
        count: selected,
        seed,
    })
}

/// `--list` and `--check-scenarios` end here, with what they print.
fn list_or_check(cli: &Cli, selected: &Selected) -> Option<String> {
    let scenarios = &selected.scenarios;
    if cli.list {
        let mut text = String::new();
        for (s, skip) in scenarios.iter().zip(&selected.skip_reasons) {
            text += &match skip {
                Some(reason) => format!("{:<44} {}  (skipped: {reason})\n", s.name, s.source),
                None => format!("{:<44} {}\n", s.name, s.source),
            };
        }
        return Some(text);
    }
    if cli.check_scenarios {
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

fn run_setup(cli: &Cli, game: &dyn crate::games::Game) -> Result<RunSetup, Fatal> {
    let tcp_game = game.facts().wire.transport == crate::games::Transport::Tcp;
    let bot = if cli.no_spawn && cli.bot.is_none() && cli.bot_cmd.is_none() {
        BotCommand {
            program: "(client started by the user)".into(),
            args: Vec::new(),
            env: Default::default(),
            workdir: None,
        }
    } else {
        bot_command(cli)?
    };
    if (cli.no_spawn || cli.port != 0) && !tcp_game {
        return Err(Fatal::Usage(format!(
            "--port and --no-spawn are for games over TCP (evolution), not {}",
            game.id()
        )));
    }
    let port = if cli.no_spawn && cli.port == 0 {
        // One port for the whole run, so the user starts every client the same way.
        crate::transport::tcp::LoopbackListener::bind(0)
            .and_then(|l| l.port())
            .map_err(|e| Fatal::Bot(format!("cannot listen on 127.0.0.1: {e}")))?
    } else {
        cli.port
    };
    let cfg = RunConfig {
        bot: bot.clone(),
        limits: cli.limits.limits(),
        timeout: cli.timeout,
        startup_timeout: cli.startup_timeout,
        exit_grace: cli.exit_grace,
        silence: cli.silence,
        strict: cli.strict,
        max_output: cli.limits.max_output,
        tcp: crate::controller::TcpConfig {
            port,
            no_spawn: cli.no_spawn,
        },
        pictures: cli.pictures
            || super::reports::requests(cli)?
                .iter()
                .any(|r| r.format == report::Format::Html),
    };
    // Before any bot starts: `--sandbox require` on a system without every
    // layer stops here (the answer is the kernel's, asked once and kept).
    crate::transport::sandbox::settle(&cfg.limits.sandbox).map_err(Fatal::Usage)?;
    let jobs = cli.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    // One listener per port: a fixed port (or a client the user starts for
    // each scenario) means one scenario at a time.
    let jobs = if tcp_game && (port != 0 || cli.no_spawn) {
        1
    } else {
        jobs
    };
    Ok(RunSetup {
        bot,
        cfg,
        jobs,
        policy: super::reports::policy(cli)?,
    })
}

/// Run the selected scenarios; a failing generated game gets its replay.
fn run_stage(
    cli: &Cli,
    game: &dyn crate::games::Game,
    selected: &Selected,
    setup: &RunSetup,
) -> Result<Vec<ScenarioResult>, Fatal> {
    let (scenarios, skip_reasons) = (&selected.scenarios, &selected.skip_reasons);
    let RunSetup { bot, cfg, jobs, .. } = setup;
    let (seed, jobs) = (selected.seed, *jobs);
    let progress = super::progress::Progress::start(scenarios.len());
    // From here a signal stops the suite and the report is still written.
    crate::transport::signals::set_reporting(true);
    let runs = suite::run_all(
        scenarios,
        skip_reasons,
        game,
        cfg,
        jobs,
        suite::StopRules {
            fail_fast: cli.fail_fast,
            keep_going: cli.keep_going,
            budget: cli.bot_time_limit.map(suite::budget::Budget::starting_now),
        },
        &|event| progress.record(event),
    );
    progress.finish();
    let suite::SuiteRuns {
        runs,
        startup_stop,
        budget_not_run,
    } = runs.map_err(|e| Fatal::Bot(e.to_string()))?;
    if let (Some(limit), 1..) = (cli.bot_time_limit, budget_not_run) {
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
            attach_replay(cli, bot, seed, scenario, &run, &mut result)?;
            shrink_saved(cli, game, cfg, scenario, &run, &mut result)?;
        }
        results.push(result);
    }
    Ok(results)
}

/// Render the report where it goes; the totals decide the exit status.
fn report_stage(
    cli: &Cli,
    game: &dyn crate::games::Game,
    selected: &Selected,
    setup: &RunSetup,
    results: &[ScenarioResult],
) -> Result<Totals, Fatal> {
    // A scenario outside the game's default run is skipped alike for every
    // bot: it is no part of the score.
    let counted: Vec<bool> = selected.skip_reasons.iter().map(Option::is_none).collect();
    let (bot, seed, selected) = (&setup.bot, selected.seed, selected.count);
    let info =
        RunInfo {
            version: crate::build_info::LONG.to_string(),
            game: game.id().to_string(),
            bot: bot.display(),
            generated: cli.games.map(|n| (n, seed)),
            strict: cli.strict,
            partition: cli.partition.map(|p| (p.to_string(), selected)),
            workspace: crate::actions::workspace(),
            environment: cli.bot_env.policy().note_here(
                crate::transport::environment::game_variables(game.facts().wire.transport),
            ),
            sandbox: crate::transport::sandbox::settle(&setup.cfg.limits.sandbox)
                .map_err(Fatal::Usage)?,
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
    super::reports::write(cli, &info, results)?;
    Ok(Totals::of(results))
}

/// 2: a scenario error, or protocheck was stopped; 1: the bot failed.
fn exit_code(totals: &Totals) -> i32 {
    if totals.errors > 0 || crate::transport::process::interrupted() {
        2
    } else if totals.failed > 0 {
        1
    } else {
        0
    }
}

/// The game options given on the command line.
fn cli_options(cli: &Cli) -> Options {
    Options {
        game: cli.game_options.values.clone(),
        ..Options::default()
    }
}

pub(super) fn lint_only(
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
pub(super) fn load(
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
            return Err(Fatal::Usage(format!(
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
fn fill_unset(options: &mut Options, cli: &Options) {
    for (name, value) in &cli.game {
        options
            .game
            .entry(name.clone())
            .or_insert_with(|| value.clone());
    }
}

fn bot_command(cli: &Cli) -> Result<BotCommand, Fatal> {
    let words: Vec<String> = match (&cli.bot, &cli.bot_cmd) {
        (Some(bot), None) => std::iter::once(bot.clone()).chain(cli.bot_args.iter().cloned()).collect(),
        (None, Some(cmd)) => {
            let mut w = shell_words::split(cmd).map_err(|e| Fatal::Usage(format!("--bot-cmd: {e}")))?;
            w.extend(cli.bot_args.iter().cloned());
            w
        }
        _ => return Err(Fatal::Usage("no bot given: protocheck [OPTIONS] --game <GAME> <BOT> (or --bot-cmd '<command line>')".into())),
    };
    let (program, args) = words
        .split_first()
        .ok_or_else(|| Fatal::Usage("--bot-cmd is empty".into()))?;
    Ok(BotCommand {
        program: super::bot_path::resolve(program).map_err(Fatal::Bot)?,
        args: args.to_vec(),
        env: crate::transport::environment::BotEnv {
            policy: cli.bot_env.policy(),
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

/// Save a failing generated game (with --save-failures) and write the
/// command that replays it.
fn attach_replay(
    cli: &Cli,
    bot: &BotCommand,
    seed: u64,
    scenario: &Scenario,
    run: &crate::controller::ScenarioRun,
    result: &mut ScenarioResult,
) -> Result<(), Fatal> {
    // The bot's environment can decide a verdict: the replay keeps its flags.
    let env_words: String = bot
        .env
        .policy
        .words()
        .iter()
        .map(|w| format!("{} ", crate::transport::shell_quote(w)))
        .collect();
    let bot_words = match &cli.bot_cmd {
        Some(cmd) => format!(
            "{env_words}--bot-cmd {}",
            crate::transport::shell_quote(cmd)
        ),
        None => format!("{env_words}{}", bot.display()),
    };
    let game = &scenario.game;
    match &cli.save_failures {
        Some(dir) => {
            let path = suite::save_failure(dir, scenario, run)
                .map_err(|e| Fatal::Io(format!("cannot save failure in {}: {e}", dir.display())))?;
            let shown = path.display().to_string();
            result.replay = Some(format!(
                "protocheck --game {game} --scenarios {} {bot_words}",
                crate::transport::shell_quote(&shown)
            ));
            result.saved_to = Some(shown);
        }
        None => {
            // A game `--rerun-failed` played again from the record is
            // replayed from its own seed, not this run's.
            let (n, seed) = match scenario.origin {
                scenario::Origin::Generated { seed: own, index }
                    if cli.games.is_none() || own != seed =>
                {
                    (index + 1, own)
                }
                _ => (cli.games.unwrap_or(0), seed),
            };
            // A game that aimed past what earlier generated games reached
            // (docs/coverage.md) plays the same only after them: no filter.
            let aimed = matches!(scenario.origin, scenario::Origin::Generated { index, .. } if index >= crate::coverage::AIM_LAG);
            let filter = if aimed {
                String::new()
            } else {
                format!("--filter {} ", scenario.name)
            };
            result.replay = Some(format!(
                "protocheck --game {game} --games {n} --seed {seed} {filter}{bot_words}   (add --save-failures DIR to get a scenario file)"
            ));
        }
    }
    Ok(())
}

/// With --save-failures and a --shrink-time: look for a shorter game that
/// fails with the same rule, save it beside the original, and make the
/// replay command play it (docs/shrinking.md).
fn shrink_saved(
    cli: &Cli,
    game: &dyn crate::games::Game,
    cfg: &RunConfig,
    scenario: &Scenario,
    run: &crate::controller::ScenarioRun,
    result: &mut ScenarioResult,
) -> Result<(), Fatal> {
    let (Some(dir), Some(saved)) = (&cli.save_failures, result.saved_to.clone()) else {
        return Ok(());
    };
    // `--bot-time-limit` bounds the bot's whole run: no re-runs past it.
    if cli.shrink_time.is_zero()
        || cli.bot_time_limit.is_some()
        || crate::transport::process::interrupted()
        || crate::shrink::for_game(game.id()).is_none()
    {
        return Ok(());
    }
    eprintln!(
        "protocheck: shrinking {} (up to {}; --shrink-time 0 skips it)",
        scenario.name,
        humantime::format_duration(cli.shrink_time)
    );
    let shrinking = crate::shrink::shrink(game, cfg, scenario, run, cli.shrink_time);
    let summary = shrinking.summary(cli.shrink_time);
    let replay = result.replay.take().unwrap_or_default();
    result.replay = Some(match shrinking {
        crate::shrink::Shrinking::Shrunk(shrunk) if shrunk.to < shrunk.from => {
            let path = suite::save_shrunk(dir, scenario, &shrunk)
                .map_err(|e| Fatal::Io(format!("cannot save failure in {}: {e}", dir.display())))?;
            let shown = crate::transport::shell_quote(&path.display().to_string());
            let saved = crate::transport::shell_quote(&saved);
            // The original's command with the shrunk file in its place.
            format!(
                "{}   ({summary}; the whole game: {saved})",
                replay.replacen(&saved, &shown, 1)
            )
        }
        _ => format!("{replay}   ({summary})"),
    });
    Ok(())
}
