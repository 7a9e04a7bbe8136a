//! The configuration of a single run, as the command line (or grade's
//! check of its run options) gives it: plain typed values, no parser.

use crate::games::options::GameOptionValues;
use crate::report::Format;
use crate::report::request::Request;
use crate::suite::partition::Partition;
use crate::transport::Limits;
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
#[derive(Clone, Debug, Default)]
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
    pub timeout: Option<Duration>,
    pub startup_timeout: Option<Duration>,
    pub exit_grace: Option<Duration>,
    pub silence: Option<Duration>,
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
    /// The limits of every bot process (`--max-output` is `max_output`).
    pub limits: Limits,
    pub max_output: u64,
    pub all_sizes: bool,
    pub game_options: GameOptionValues,
    pub env: EnvPolicy,
    pub port: u16,
    pub no_spawn: bool,
}
