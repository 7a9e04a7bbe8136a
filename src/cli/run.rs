//! The single run's command line turned into its `RunSpec`.

use super::{Cli, project};
use crate::config::Timings;
use crate::run::RunSpec;
use std::path::PathBuf;

/// The run the command line asks for.
pub(super) fn spec(cli: Cli) -> RunSpec {
    let project_file = project_file(&cli);
    RunSpec {
        limits: cli.limits.bot_limits(),
        game_options: cli.game_options.values,
        env: cli.bot_env.policy(),
        project_file,
        bot: cli.bot,
        bot_args: cli.bot_args,
        bot_cmd: cli.bot_cmd,
        grading: cli.grading,
        game: cli.game,
        scenarios: cli.scenarios,
        with_builtin: cli.with_builtin,
        filter: cli.filter,
        partition: cli.partition,
        list: cli.list,
        check_scenarios: cli.check_scenarios,
        timings: Timings {
            timeout: cli.timeout,
            startup_timeout: cli.startup_timeout,
            exit_grace: cli.exit_grace,
            silence: cli.silence,
        },
        games: cli.games,
        seed: cli.seed,
        save_failures: cli.save_failures,
        shrink_time: cli.shrink_time,
        jobs: cli.jobs,
        report: cli.report,
        format: cli.format,
        pictures: cli.pictures,
        no_annotations: cli.no_annotations,
        output: cli.output,
        fail_fast: cli.fail_fast,
        rerun_failed: cli.rerun_failed,
        bot_time_limit: cli.bot_time_limit,
        keep_going: cli.keep_going,
        verbose: cli.verbose,
        quiet: cli.quiet,
        strict: cli.strict,
        require_coverage: cli.require_coverage,
        color: cli.color,
        all_sizes: cli.all_sizes,
        port: cli.port,
        no_spawn: cli.no_spawn,
    }
}

/// The project file the run took its settings from, if any.
fn project_file(cli: &Cli) -> Option<PathBuf> {
    if let Some(file) = &cli.config {
        return Some(std::fs::canonicalize(file).unwrap_or_else(|_| file.clone()));
    }
    if cli.no_config {
        return None;
    }
    project::find(&std::env::current_dir().ok()?)
}
