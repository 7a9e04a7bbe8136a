//! `protocheck grade` and `merge` on the command line: their options, and
//! the run options after `--` read by the parser of a single run into
//! grade's typed configuration.

use super::{Cli, manual, project};
use crate::fatal::Fatal;
use crate::grade::{GivenOption, GradeConfig, MergeConfig, ParsedRunOptions, RunOptions};
use crate::run::RunSpec;
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches};
use std::path::{Path, PathBuf};

/// Grade a class: one report per bot, `grades.csv`, `grades.json` and a class page.
#[derive(Debug, clap::Args)]
#[command(after_help = GRADE_HELP)]
pub struct GradeArgs {
    /// Bot programs, as paths or globs (`submissions/*/bot`, expanded by
    /// protocheck when quoted); each bot's id is its folder's name, and it
    /// runs in that folder.
    #[arg(value_name = "BOT")]
    pub bots: Vec<String>,
    /// A CSV roster, `id,command[,workdir]` per line (header optional), for
    /// bots that need a command line; workdir is relative to the file.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// The output folder.
    #[arg(long, short = 'o', value_name = "DIR", default_value = "grades")]
    pub out: PathBuf,
    /// Jobs (default: CPUs): bots graded at once, one job each; when the
    /// bots left are fewer than the jobs, a bot's scenarios get the jobs no
    /// other bot needs (its run's own --jobs). Verdicts do not depend on it.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Grade every bot again, also those kept because nothing they depend on
    /// changed.
    #[arg(long)]
    pub force: bool,
    /// Grade only shard K of N of the roster (dealt out round robin in
    /// roster order); join the shards' folders with `protocheck merge`.
    #[arg(long, value_name = "K/N")]
    pub partition: Option<String>,
    /// Exit with 1 when a bot did not pass (grading as a gate).
    #[arg(long)]
    pub fail_on_any: bool,
    /// Also write the CSV gradebooks import: `id,score`, one line per bot
    /// (the score by the run options' `--grading` policy, or the default;
    /// empty for a bot without a report).
    #[arg(long, value_name = "PATH")]
    pub gradebook_csv: Option<PathBuf>,
    /// The output folder of an earlier grade: each bot's previous score
    /// there and the rules it fixed or newly broke since, on the class page
    /// and in grades.csv/grades.json (read from its report there; a bot
    /// without one is new).
    #[arg(long, value_name = "OLD_DIR")]
    pub compare: Option<PathBuf>,
    /// The limits and the sandbox of every bot, given to each bot's run
    /// (the same flags after `--` do the same).
    #[command(flatten)]
    pub limits: super::limit_flags::LimitFlags,
    /// The longest one bot's whole grading may take (all its scenarios and
    /// generated games), e.g. 2m, or none (the default: every bot runs to
    /// the end, each reply bounded by its timeouts). When it is spent the
    /// bot's running scenarios are stopped; it is graded on the scenarios
    /// it finished, the rest listed as not run with the reason. A scenario
    /// cut short is never a failure.
    #[arg(long, value_name = "DURATION", default_value = "none", value_parser = crate::transport::limits::parse_optional_duration)]
    pub bot_time_limit: std::option::Option<std::time::Duration>,
    /// The options of a single run, given to every bot's run unchanged
    /// (game, scenarios, --games with --seed, timeouts, limits, …).
    #[arg(last = true, value_name = "RUN_OPTIONS")]
    pub run_options: Vec<String>,
}

const GRADE_HELP: &str = "Examples:\n  \
protocheck grade submissions/*/bot -- --game kalah\n  \
protocheck grade --roster roster.csv --out grades --jobs 4 -- --game kalah --games 20 --seed 2026\n  \
protocheck grade submissions/*/bot --out week2 --compare week1 -- --game kalah\n\
A bot graded before is kept while nothing it depends on changed: every file of its folder (by content), its command, \
the run options and protocheck's version; --force grades every bot again. A bot cut by --bot-time-limit is graded again \
when the limit changes; one that finished is kept while it finished within the new limit.\n\
The limit and sandbox options above are added to every bot's run options (give each on one side of `--` only).\n\
Exit status: 0 every bot was graded (failures included), 1 with --fail-on-any when a bot did not pass, \
2 bad input (nothing runs) or grade was stopped.";

/// Join the output folders of `grade --partition` shards.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shards' output folders.
    #[arg(value_name = "FOLDER", required = true)]
    pub folders: Vec<PathBuf>,
    /// Where the merged folder goes.
    #[arg(long, short = 'o', value_name = "DIR", default_value = "grades")]
    pub out: PathBuf,
}

impl GradeArgs {
    /// The grading these options ask for; a usage error when the run
    /// options after `--` do not make a single run grade may give.
    pub(super) fn config(&self) -> Result<GradeConfig, Fatal> {
        let cwd =
            std::env::current_dir().map_err(|e| Fatal::io("cannot tell the current folder", e))?;
        let run_options =
            crate::grade::options::with_limits(&self.run_options, &self.limits.words())
                .map_err(|e| Fatal::usage(e.to_string()))?;
        let options = self::run_options(&run_options, &cwd).map_err(Fatal::usage)?;
        let selection = selection(&options.args);
        Ok(GradeConfig {
            bots: self.bots.clone(),
            roster: self.roster.clone(),
            out: self.out.clone(),
            jobs: crate::config::jobs(self.jobs),
            force: self.force,
            partition: self.partition.clone(),
            fail_on_any: self.fail_on_any,
            gradebook_csv: self.gradebook_csv.clone(),
            compare: self.compare.clone(),
            bot_time_limit: self.bot_time_limit,
            cwd,
            run_options,
            options,
            selection,
        })
    }
}

impl MergeArgs {
    pub(super) fn config(&self) -> MergeConfig {
        MergeConfig {
            folders: self.folders.clone(),
            out: self.out.clone(),
        }
    }
}

/// The run options after `--`, parsed as a single run's and checked by
/// grade.
fn run_options(given: &[String], cwd: &Path) -> Result<RunOptions, String> {
    let words = std::iter::once("protocheck".to_string()).chain(given.iter().cloned());
    let matches = Cli::command().try_get_matches_from(words).map_err(|e| {
        let text = e.to_string();
        let first = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        format!("the run options after `--` do not parse: {first}")
    })?;
    if matches.subcommand().is_some() {
        return Err("the run options after `--` name a subcommand; give only the options of a single run, e.g. -- --game kalah --games 20 --seed 7".into());
    }
    let given_options = Cli::command()
        .get_arguments()
        .filter(|a| matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine))
        .map(|a| GivenOption {
            id: a.get_id().to_string(),
            written: a
                .get_long()
                .map(|l| format!("--{l}"))
                .unwrap_or_else(|| "a bot".to_string()),
        })
        .collect();
    let sandbox = super::limit_flags::LimitFlags::from_arg_matches(&matches)
        .map_err(|e| format!("the run options after `--` do not parse: {e}"))?
        .sandbox_options();
    crate::grade::options::check(
        &ParsedRunOptions {
            words: given.to_vec(),
            given: given_options,
            game: matches.get_one::<String>("game").cloned(),
            sandbox,
        },
        cwd,
    )
    .map_err(|e| e.to_string())
}

/// The single run every bot's protocheck makes of `args` (the project
/// file `--config` names applied), or what such a protocheck would say
/// instead.
fn selection(args: &[String]) -> Result<RunSpec, String> {
    let words = std::iter::once("protocheck".to_string())
        .chain(args.iter().cloned())
        .collect();
    let words = project::apply(words).map_err(|e| e.to_string())?;
    let matches = manual::with_game_list(Cli::command())
        .try_get_matches_from(words)
        .and_then(|matches| Cli::from_arg_matches(&matches))
        .map_err(|e| e.to_string())?;
    Ok(super::run::spec(matches))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[derive(clap::Parser)]
    struct Grade {
        #[command(flatten)]
        args: GradeArgs,
    }

    fn bot_time_limit(words: &[&str]) -> Result<Option<std::time::Duration>, String> {
        use clap::Parser;
        let words = ["grade", "bot"].iter().chain(words);
        Grade::try_parse_from(words)
            .map(|g| g.args.bot_time_limit)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_bot_time_limit_is_none_unless_given() {
        use std::time::Duration;
        assert_eq!(bot_time_limit(&[]), Ok(None));
        assert_eq!(bot_time_limit(&["--bot-time-limit", "none"]), Ok(None));
        assert_eq!(
            bot_time_limit(&["--bot-time-limit", "2m"]),
            Ok(Some(Duration::from_secs(120)))
        );
        assert_eq!(
            bot_time_limit(&["--bot-time-limit=1m30s"]),
            Ok(Some(Duration::from_secs(90)))
        );
        let e = bot_time_limit(&["--bot-time-limit", "soon"]).unwrap_err();
        assert!(e.contains("--bot-time-limit"), "{e}");
    }

    #[test]
    fn selection_options_pass_with_paths_made_absolute() {
        let opts = run_options(
            &words("--game kalah --scenarios extra --scenarios=more/x.yaml --games 3 --seed 9"),
            Path::new("/course"),
        )
        .unwrap();
        assert_eq!(
            opts.args,
            words(
                "--no-config --game kalah --scenarios /course/extra --scenarios=/course/more/x.yaml --games 3 --seed 9"
            )
        );
        assert_eq!(opts.game.as_deref(), Some("kalah"));
    }

    #[test]
    fn options_grade_sets_itself_are_refused_with_the_reason() {
        for (given, named) in [
            ("--game kalah --format html", "--format"),
            ("--game kalah --output x.json", "--output"),
            ("--game kalah --jobs 4", "--jobs"),
            ("--game kalah ./bot", "a bot"),
            ("--game kalah --bot-cmd x", "--bot-cmd"),
            ("--game kalah --bot-time-limit 2m", "--bot-time-limit"),
        ] {
            let e = run_options(&words(given), Path::new("/")).unwrap_err();
            assert!(
                e.starts_with(&format!("{named} cannot be given to grade")),
                "{given}: {e}"
            );
        }
    }

    #[test]
    fn the_sandbox_of_the_runs_is_read_from_the_options() {
        let opts = run_options(
            &words("--game kalah --sandbox off --max-disk 1G"),
            Path::new("/"),
        )
        .unwrap();
        assert_eq!(opts.sandbox.mode, crate::transport::sandbox::Mode::Off);
        assert_eq!(opts.sandbox.max_disk, Some(1 << 30));
        let opts =
            run_options(&words("--game kalah --allow-read ."), Path::new("/course")).unwrap();
        assert_eq!(
            opts.args,
            words("--no-config --game kalah --allow-read /course/.")
        );
    }

    #[test]
    fn generated_games_need_a_fixed_seed_and_bad_options_say_why() {
        let e = run_options(&words("--game kalah --games 5"), Path::new("/")).unwrap_err();
        assert!(e.contains("--games needs --seed"), "{e}");
        let e = run_options(&words("--game kalah --no-such-option"), Path::new("/")).unwrap_err();
        assert!(
            e.contains("do not parse") && e.contains("--no-such-option"),
            "{e}"
        );
    }
}
