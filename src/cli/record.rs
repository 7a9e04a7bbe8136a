//! `protocheck record` on the command line: its options, turned into
//! `record`'s typed configuration.

use crate::config::parse_duration;
use crate::record::RecordConfig;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct RecordArgs {
    /// The game protocol.
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// Where to write the scenario.
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// The bot program (not with --from-transcript); its arguments go after `--`.
    #[arg(value_name = "BOT")]
    pub bot: Option<String>,
    #[arg(last = true, value_name = "BOT_ARGS")]
    pub bot_args: Vec<String>,
    /// The bot as one shell-quoted command line.
    #[arg(long, value_name = "CMD", conflicts_with = "bot")]
    pub bot_cmd: Option<String>,
    /// Make the scenario from this transcript instead of playing: a JSON
    /// report (`--format json`), a log of `> `/`< ` lines, or a ManKalah.jar log.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["bot", "bot_cmd"])]
    pub from_transcript: Option<PathBuf>,
    /// JSON reports: the scenario whose transcript to take (default: the
    /// first that failed, else the first).
    #[arg(long, value_name = "NAME", requires = "from_transcript")]
    pub scenario: Option<String>,
    /// ManKalah.jar logs: the bot is player 1 (starts as South) or 2.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        requires = "from_transcript"
    )]
    pub player: u8,
    /// The scenario's name (default: from the output file's name).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Time limit per expected reply (default per game); written to the
    /// scenario's options.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// How long `expect: silence` listens; written to the scenario's options.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub silence: Option<Duration>,
    /// The game's own options (`--holes`, `--board-size`, `--players`, …);
    /// written to the scenario's options.
    #[command(flatten)]
    pub game_options: super::game_flags::GameFlags,
    /// Seed of the built-in opponent's `auto` choices (written to the file).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// The bot's environment, as in a single run.
    #[command(flatten)]
    pub bot_env: super::env_flags::EnvFlags,
    /// The limits the bot runs under, and its sandbox, as in a single run.
    #[command(flatten)]
    pub limits: super::limit_flags::LimitFlags,
}

impl RecordArgs {
    pub(super) fn config(&self) -> RecordConfig {
        RecordConfig {
            output: self.output.clone(),
            bot: self.bot.clone(),
            bot_args: self.bot_args.clone(),
            bot_cmd: self.bot_cmd.clone(),
            from_transcript: self.from_transcript.clone(),
            scenario: self.scenario.clone(),
            player: self.player,
            name: self.name.clone(),
            force: self.force,
            timeout: self.timeout,
            silence: self.silence,
            game_options: self.game_options.values.clone(),
            seed: self.seed,
            env: self.bot_env.policy(),
            limits: self.limits.bot_limits(),
        }
    }
}
