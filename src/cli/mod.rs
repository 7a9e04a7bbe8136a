//! The command line, and only it: the arguments (and `protocheck.toml`)
//! parsed into the typed configuration of a command (`run`, `grade`,
//! `matchplay`, `record`), the command called, its `Fatal` mapped to exit
//! status 2 with its message. Exit status: 0 all passed, 1 a conformance failure,
//! 2 usage error, invalid scenario, a bot that cannot be started, or a
//! run stopped by a signal.

use crate::config::parse_duration;
use crate::fatal::Fatal;
use crate::report::Format;
use crate::report::stdout::{emit, emit_bytes};
use crate::run::game_named;
use crate::scenario;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

pub use crate::run::ColorChoice;

pub mod env_flags;
pub mod game_flags;
mod grade;
pub mod limit_flags;
pub mod manual;
mod matchplay;
pub mod project;
mod record;
mod run;
use std::path::PathBuf;
use std::time::Duration;

/// Conformance harness for game bots: plays the engine's side of a game
/// protocol against your bot and reports every violation with the rule it
/// breaks.
#[derive(Debug, Parser)]
#[command(name = "protocheck", version = crate::build_info::LONG, args_conflicts_with_subcommands = true, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The bot program (a path or a command name); its arguments go after `--`.
    #[arg(value_name = "BOT")]
    pub bot: Option<String>,
    /// Arguments for the bot.
    #[arg(last = true, value_name = "BOT_ARGS")]
    pub bot_args: Vec<String>,
    /// The bot as one shell-quoted command line, e.g. 'python3 bot.py --depth 3'.
    #[arg(long, value_name = "CMD", conflicts_with = "bot")]
    pub bot_cmd: Option<String>,

    /// Settings from this file instead of the nearest protocheck.toml in
    /// the current folder or above (command-line options still win).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Ignore protocheck.toml.
    #[arg(long, conflicts_with = "config")]
    pub no_config: bool,
    /// Score the run by the `[grading]` table of this TOML file (default:
    /// the project file's, when it has one; else one point per scenario
    /// that passed). See docs/grading.md.
    #[arg(long, value_name = "FILE")]
    pub grading: Option<PathBuf>,

    /// The game protocol (required unless every scenario file names its game).
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// Run this scenario file or folder instead of the built-in suite;
    /// repeat the option for more (one path each, so the bot that follows
    /// is never taken for a scenario).
    #[arg(long, value_name = "PATH")]
    pub scenarios: Vec<PathBuf>,
    /// With --scenarios: run the built-in suite too.
    #[arg(long)]
    pub with_builtin: bool,
    /// Select scenarios whose name contains SUBSTRING or matches GLOB.
    #[arg(long, value_name = "SUBSTRING|GLOB")]
    pub filter: Option<String>,
    /// Run one shard of the selected scenarios, as cargo-nextest does:
    /// count:K/N deals them out round robin in listing order, hash:K/N by a
    /// stable hash of the name (a scenario keeps its shard as the suite
    /// grows). For a CI matrix of N jobs; an empty shard passes.
    #[arg(long, value_name = "count:K/N|hash:K/N")]
    pub partition: Option<crate::suite::partition::Partition>,
    /// List the selected scenarios and exit.
    #[arg(long)]
    pub list: bool,
    /// Only check the scenario files (rules, syntax), run no bot.
    #[arg(long)]
    pub check_scenarios: bool,

    /// Time limit per expected reply, e.g. 2s or 500ms (default per game).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Time limit for the bot's first reply (start-up included).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub startup_timeout: Option<Duration>,
    /// How long the bot may take to exit after the game ends.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub exit_grace: Option<Duration>,
    /// How long `expect: silence` listens, and the pause before each
    /// opponent move in generated play (0 for speed).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub silence: Option<Duration>,

    /// Also play N generated whole games against built-in opponents.
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Seed for generated games (default: a fresh one, printed).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Write each failing generated game here as a replayable scenario.
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,
    /// With --save-failures: how long to look for a shorter game that fails
    /// with the same rule, per failing generated game (0 turns it off).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "30s")]
    pub shrink_time: Duration,

    /// Scenarios run in parallel, each with its own bot process (default: CPUs).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// A report to write, repeatable: KIND for standard output, KIND=FILE
    /// for a file (human, json, junit, github, html, gradescope,
    /// prairielearn). Every report comes
    /// from the same run: `--report json=r.json --report junit=r.xml
    /// --report html=r.html`. Default: human on standard output.
    #[arg(long, value_name = "KIND[=FILE]")]
    pub report: Vec<crate::report::request::Request>,
    /// The older form of --report: one report in this format, on standard
    /// output or in --output FILE (default human; with --report, one more).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// Record the game's picture beside every transcript line of a
    /// scenario that did not pass, in every format (the HTML report always
    /// does): `grade` asks it of each bot's JSON report, from which it
    /// draws that bot's HTML page.
    #[arg(long, hide = true)]
    pub pictures: bool,
    /// In GitHub Actions (GITHUB_ACTIONS=true), do not add annotations on
    /// stderr or the summary to $GITHUB_STEP_SUMMARY.
    #[arg(long)]
    pub no_annotations: bool,
    /// The older form of --report: write the --format report to FILE
    /// instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Stop at the first scenario that does not pass.
    #[arg(long)]
    pub fail_fast: bool,
    /// Run only the scenarios that failed when this bot last ran this
    /// suite (generated games again from their seed), as pytest's --lf;
    /// with none on record, run them all. The record is kept in
    /// .protocheck/ beside protocheck.toml, else in the user's cache folder
    /// ($XDG_CACHE_HOME/protocheck or ~/.cache/protocheck).
    #[arg(long)]
    pub rerun_failed: bool,
    /// The bot's whole run may take this long (set by `grade
    /// --bot-time-limit` for each bot): then no scenario starts, the
    /// running ones are stopped, and they and the rest are listed as not
    /// run with the reason.
    #[arg(long, hide = true, value_name = "DURATION", value_parser = parse_duration)]
    pub bot_time_limit: Option<Duration>,
    /// Run every scenario even when the first ones all fail the same way
    /// at start-up (by default the run then stops after them and lists the
    /// rest as not run).
    #[arg(long)]
    pub keep_going: bool,
    /// Show the full transcript of every scenario, the board beside every
    /// warning (failures always have it), every skipped scenario on its own
    /// line, and the time spent listening for output out of turn.
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Print only the scenarios that did not pass, their details, one line
    /// per warning of a scenario that passed, and the summary line.
    #[arg(short, long)]
    pub quiet: bool,
    /// Treat warnings as failures.
    #[arg(long)]
    pub strict: bool,
    /// Fail the run (exit status 1) unless it checked each of these rules
    /// and reached each of these situations at least once (ids as the
    /// coverage table lists them; comma-separated or repeated). For course
    /// staff whose own scenarios must exercise what they grade.
    #[arg(long, value_name = "RULE_OR_SITUATION", value_delimiter = ',')]
    pub require_coverage: Vec<String>,
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// The limits every bot runs under, and its sandbox.
    #[command(flatten)]
    pub limits: limit_flags::LimitFlags,

    /// Also run the scenarios outside the default run. Kalah: boards other
    /// than Kalah(7,7), which every real match uses (giving --holes or
    /// --seeds for another board does this too).
    #[arg(long)]
    pub all_sizes: bool,
    /// The games' own options (`--holes`, `--board-size`, `--players`, …),
    /// as each game's options table lists them.
    #[command(flatten)]
    pub game_options: game_flags::GameFlags,
    /// The bot's environment: protocheck's own without the variables that
    /// change how a runtime buffers or encodes its output.
    #[command(flatten)]
    pub bot_env: env_flags::EnvFlags,
    /// Games over TCP (Evolution): the port protocheck listens on, on
    /// 127.0.0.1 (0: a free port for each scenario). The bot gets it as
    /// PROTOCHECK_PORT and in place of `{port}` in its arguments. A fixed
    /// port runs the scenarios one at a time.
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    pub port: u16,
    /// Games over TCP: start no bot; for each scenario, in turn, wait for a
    /// client that you start yourself (the port is printed on stderr; with
    /// --port 0 one free port is chosen for the whole run).
    #[arg(long)]
    pub no_spawn: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check scenario files without running a bot (same as --check-scenarios).
    Lint {
        #[arg(long)]
        game: Option<String>,
        /// Files or folders (default: the built-in suite of --game).
        paths: Vec<PathBuf>,
    },
    /// Print the JSON Schema of the scenario format.
    Schema,
    /// Print a game's check catalogue: rule ids, severities, spec sentences.
    Rules {
        #[arg(long)]
        game: String,
    },
    /// Explain a rule: its spec sentence, why protocheck judges it that way,
    /// a wrong and a right exchange, and the built-in scenarios naming it.
    Explain {
        /// A rule id, e.g. kalah.move.empty-hole (the game prefix may be
        /// left out when the rest is unique).
        rule: String,
        /// For a shared `io.*` id: only this game's version (default: each
        /// game's).
        #[arg(long)]
        game: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: ExplainFormat,
    },
    /// Print a shell completion script, e.g.
    /// `protocheck completions bash > ~/.local/share/bash-completion/completions/protocheck`.
    Completions { shell: clap_complete::Shell },
    /// Print the man page (roff), e.g. `protocheck man > protocheck.1 && man ./protocheck.1`.
    Man,
    /// Write a commented protocheck.toml for this repository and a GitHub
    /// Actions workflow that runs it; with --platform, the autograder files
    /// of a grading platform instead of the workflow.
    Init {
        #[arg(long)]
        game: String,
        /// Write what a grading platform runs for each submission:
        /// Gradescope's setup.sh and run_autograder, or PrairieLearn's
        /// entry script and info.json fragment (with protocheck.toml and its
        /// [grading] table).
        #[arg(long, value_enum)]
        platform: Option<project::platform::Platform>,
        /// The bot program, as the project file will name it.
        #[arg(long, default_value = "./my-bot")]
        bot: String,
        /// Replace files that already exist.
        #[arg(long)]
        force: bool,
    },
    /// Write a scenario by playing the engine's side against a bot on the
    /// terminal, or (--from-transcript) from a transcript, with no bot.
    Record(Box<record::RecordArgs>),
    /// Grade a class: every bot of a roster on the same selection, several
    /// at once; one report per bot, grades.csv/json and a class page.
    Grade(Box<grade::GradeArgs>),
    /// Join the output folders of `grade --partition` shards into one.
    Merge(grade::MergeArgs),
    /// Play games between bots at one table (every game), protocheck the
    /// engine between them; every message judged as in a single run, a bot
    /// that breaks a rule loses by forfeit.
    Match(Box<matchplay::MatchArgs>),
    /// A round robin between bots (each pair in both seat orders), with
    /// standings; each match saved.
    Tournament(Box<matchplay::TournamentArgs>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    Text,
    Json,
}

const AFTER_HELP: &str = "Exit status: 0 every selected scenario passed; 1 at least one conformance failure; \
2 usage error, invalid scenario file, the bot could not be started, or protocheck was stopped \
by SIGINT, SIGTERM or SIGHUP (the report is still written, unfinished scenarios marked interrupted).\n\
Examples:\n  protocheck ./my-bot --game kalah\n  protocheck --game kalah --bot-cmd 'python3 bot.py' --games 20 --seed 7\n  protocheck schema > scenario.schema.json";

/// Run the command line; returns the exit status.
pub fn main(args: Vec<String>, stop: &crate::pool::StopToken) -> i32 {
    let args = match project::apply(args) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let parsed = manual::with_game_list(Cli::command())
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match execute(cli, stop) {
        Ok(code) => code,
        Err(fatal) => {
            // After a signal, "cannot start bot: protocheck was interrupted"
            // and the like are no news: the stop is reported by itself.
            if !stop.is_stopped() {
                eprintln!("{fatal}");
            }
            2
        }
    }
}

/// `protocheck explain`: exit 0 with the explanation, 2 for an unknown id
/// (with the closest ids) or a game that does not have the rule.
fn explain(rule: &str, game: Option<&str>, format: ExplainFormat) -> Result<i32, Fatal> {
    use crate::explain::{self, Lookup};
    if let Some(g) = game
        && !explain::catalogues().iter().any(|(id, _)| *id == g)
    {
        game_named(Some(g))?;
    }
    let quoted = |ids: &[&str]| {
        ids.iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let found = match explain::lookup(rule, game) {
        Lookup::Found(found) => found,
        Lookup::Unknown { suggestions } => {
            let hint = if suggestions.is_empty() {
                String::new()
            } else {
                format!("; did you mean {}?", quoted(&suggestions))
            };
            return Err(Fatal::usage(format!(
                "unknown rule id `{rule}`{hint} (`protocheck rules --game <GAME>` lists every rule)"
            )));
        }
        Lookup::Ambiguous(ids) => {
            return Err(Fatal::usage(format!(
                "`{rule}` is ambiguous: {}",
                quoted(&ids)
            )));
        }
        Lookup::NotInGame { games } => {
            return Err(Fatal::usage(format!(
                "`{rule}` is not a rule of {}; it is a rule of {}",
                game.unwrap_or_default(),
                games.join(", ")
            )));
        }
    };
    let explained = explain::explain(&found);
    emit(&match format {
        ExplainFormat::Text => explain::text(&explained),
        ExplainFormat::Json => explain::json(&explained),
    });
    Ok(0)
}

fn execute(cli: Cli, stop: &crate::pool::StopToken) -> Result<i32, Fatal> {
    match &cli.command {
        Some(Command::Schema) => {
            emit(&scenario::schema::generate());
            return Ok(0);
        }
        Some(Command::Rules { game }) => {
            let game = game_named(Some(game))?;
            let mut text = String::new();
            for r in game.catalogue() {
                text += &format!("{:<36} {:<5} {}\n", r.id, r.severity.as_str(), r.spec);
            }
            emit(&text);
            return Ok(0);
        }
        Some(Command::Explain { rule, game, format }) => {
            return explain(rule, game.as_deref(), *format);
        }
        Some(Command::Completions { shell }) => {
            emit_bytes(&manual::completions(*shell));
            return Ok(0);
        }
        Some(Command::Init {
            game,
            bot,
            force,
            platform: Some(platform),
        }) => {
            let game = game_named(Some(game))?;
            let dir = std::path::Path::new(".");
            let written = project::platform::write(dir, *platform, game.id(), bot, *force)
                .map_err(|e| Fatal::usage(e.to_string()))?;
            let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
            emit(&format!(
                "wrote {}\n{}\n",
                names.join(", "),
                project::platform::next_steps(*platform)
            ));
            return Ok(0);
        }
        Some(Command::Init {
            game, bot, force, ..
        }) => {
            let game = game_named(Some(game))?;
            let dir = std::path::Path::new(".");
            let mut written = project::init::write(dir, game.id(), bot, *force)
                .map_err(|e| Fatal::usage(e.to_string()))?;
            written
                .extend(project::init::ignore_state(dir).map_err(|e| Fatal::usage(e.to_string()))?);
            let mut names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
            let last = names.pop().unwrap_or_default();
            let names = match names.is_empty() {
                true => last,
                false => format!("{} and {last}", names.join(", ")),
            };
            emit(&format!(
                "wrote {names}\nnext: edit `bot` in protocheck.toml, then run `protocheck`; \
                 for CI, set PROTOCHECK_GIT and PROTOCHECK_REV at the top of \
                 .github/workflows/protocheck.yml\n",
            ));
            return Ok(0);
        }
        Some(Command::Man) => {
            let page =
                manual::man_page().map_err(|e| Fatal::io("cannot render the man page", e))?;
            emit_bytes(&page);
            return Ok(0);
        }
        Some(Command::Record(args)) => {
            let game = game_named(Some(&args.game))?;
            return crate::record::run(&args.config(), game, stop);
        }
        Some(Command::Grade(args)) => return crate::grade::grade(&args.config()?, stop),
        Some(Command::Merge(args)) => return crate::grade::merge(&args.config()),
        Some(Command::Match(args)) => return crate::matchplay::play_match(&args.config(), stop),
        Some(Command::Tournament(args)) => {
            return crate::matchplay::tournament(&args.config(), stop);
        }
        Some(Command::Lint { game, paths }) => {
            let game_id = game.clone().or(cli.game.clone());
            let (scenarios, errors) =
                crate::run::load(paths, game_id.as_deref(), paths.is_empty())?;
            return crate::run::lint_only(&scenarios, errors, game_id.as_deref());
        }
        None => {}
    }
    crate::run::run(&run::spec(cli), stop)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every `.rs` file below `dir`.
    fn sources(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src/ is readable") {
            let path = entry.expect("src/ is readable").path();
            if path.is_dir() {
                sources(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }

    /// The commands are a library behind the command line: only the
    /// command line itself (and `main`) may name it.
    #[test]
    fn nothing_below_the_command_line_imports_it() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        assert!(files.len() > 50, "the scan found the sources");
        let climbing: Vec<String> = files
            .iter()
            .filter(|f| !f.starts_with(src.join("cli")) && **f != src.join("main.rs"))
            .filter(|f| {
                let text = std::fs::read_to_string(f).expect("a source file is readable");
                text.contains("crate::cli") || text.contains("protocheck::cli")
            })
            .map(|f| f.strip_prefix(&src).unwrap_or(f).display().to_string())
            .collect();
        assert!(
            climbing.is_empty(),
            "these files below cli/ import it: {climbing:?}"
        );
    }
}
