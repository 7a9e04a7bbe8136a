//! The configuration of a single run, as the command line (or grade's
//! check of its run options) gives it: plain typed values, no parser.

use crate::config::{BotLimits, Timings};
use crate::games::options::GameOptionValues;
use crate::report::Format;
use crate::report::request::Request;
use crate::suite::partition::Partition;
use crate::transport::environment::EnvPolicy;
use std::path::PathBuf;
use std::time::Duration;

/// Whether the human report is coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Everything a single run is given (the command line's meaning of each
/// field is in `cli::Cli`).
#[derive(Clone, Debug)]
pub struct RunSpec {
    pub bot: Option<String>,
    pub bot_args: Vec<String>,
    pub bot_cmd: Option<String>,
    /// The project file (`protocheck.toml`) the settings came from, if any:
    /// `--rerun-failed` keeps its record beside it.
    pub project_file: Option<PathBuf>,
    pub grading: Option<PathBuf>,
    pub game: Option<String>,
    pub scenarios: Vec<PathBuf>,
    pub with_builtin: bool,
    pub filter: Option<String>,
    pub partition: Option<Partition>,
    pub list: bool,
    pub check_scenarios: bool,
    /// `--timeout`, `--startup-timeout`, `--exit-grace`, `--silence`.
    pub timings: Timings,
    pub games: Option<usize>,
    pub seed: Option<u64>,
    pub save_failures: Option<PathBuf>,
    pub shrink_time: Duration,
    pub jobs: Option<usize>,
    pub report: Vec<Request>,
    pub format: Option<Format>,
    pub pictures: bool,
    pub no_annotations: bool,
    pub output: Option<PathBuf>,
    pub fail_fast: bool,
    pub rerun_failed: bool,
    pub bot_time_limit: Option<Duration>,
    pub keep_going: bool,
    pub verbose: bool,
    pub quiet: bool,
    pub strict: bool,
    pub require_coverage: Vec<String>,
    pub color: ColorChoice,
    /// The limits of every bot process.
    pub limits: BotLimits,
    pub all_sizes: bool,
    pub game_options: GameOptionValues,
    pub env: EnvPolicy,
    pub port: u16,
    pub no_spawn: bool,
}

impl Default for RunSpec {
    /// A run of the built-in suite with the limits' defaults (the
    /// command line's, `LimitFlags::default`), no bot and no game chosen.
    fn default() -> Self {
        RunSpec {
            bot: None,
            bot_args: Vec::new(),
            bot_cmd: None,
            project_file: None,
            grading: None,
            game: None,
            scenarios: Vec::new(),
            with_builtin: false,
            filter: None,
            partition: None,
            list: false,
            check_scenarios: false,
            timings: Timings::default(),
            games: None,
            seed: None,
            save_failures: None,
            shrink_time: Duration::from_secs(30),
            jobs: None,
            report: Vec::new(),
            format: None,
            pictures: false,
            no_annotations: false,
            output: None,
            fail_fast: false,
            rerun_failed: false,
            bot_time_limit: None,
            keep_going: false,
            verbose: false,
            quiet: false,
            strict: false,
            require_coverage: Vec::new(),
            color: ColorChoice::Auto,
            limits: BotLimits {
                limits: crate::transport::Limits::default(),
                max_output: crate::controller::bounds::DEFAULT_MAX_OUTPUT,
            },
            all_sizes: false,
            game_options: GameOptionValues::new(),
            env: EnvPolicy::default(),
            port: 0,
            no_spawn: false,
        }
    }
}
