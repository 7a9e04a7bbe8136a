//! `protocheck match` and `tournament` on the command line: their options,
//! turned into `matchplay`'s typed configurations.

use crate::config::{Timings, parse_duration};
use crate::matchplay::{MatchConfig, MatchFormat, TableConfig, TournamentConfig};
use std::path::PathBuf;
use std::time::Duration;

/// Play games between bots at one table, protocheck the engine between them.
#[derive(Debug, clap::Args)]
#[command(after_help = MATCH_HELP)]
pub struct MatchArgs {
    #[command(flatten)]
    pub table: TableArgs,
    /// The bot programs, as many as the game seats at one table (Kalah,
    /// QTP: two; Dominion: 2 to 4; Evolution: 2 to 8; built-in players
    /// take the seats no bot takes). The first sits at seat 1 (Kalah
    /// South, QTP black) in game 1; each game the seats rotate by one.
    #[arg(value_name = "BOT", num_args = 2.., required = true)]
    pub bots: Vec<String>,
    /// Games to play, seats rotating.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub games: usize,
    /// Games played at once (default: CPUs), each with its own bots. The
    /// results do not depend on it.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Also write the match (JSON, every game's transcript) to this file.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Look, for up to this long per forfeited game, for another game of
    /// this match (other seats, another deal and built-in players' choices)
    /// in which the same bot forfeits with the same rule sooner, both bots
    /// re-run on each (docs/shrinking.md). Default 0: off.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "0s")]
    pub shrink_time: Duration,
}

/// What every game of a match or a tournament is played with.
#[derive(Debug, clap::Args)]
pub struct TableArgs {
    /// The game the bots play.
    #[arg(long)]
    pub game: String,
    /// A report to write, repeatable: KIND for standard output, KIND=FILE
    /// for a file (human, json, html, junit), every one from the same
    /// games: `--report json=m.json --report html=m.html`. Default: human
    /// on standard output.
    #[arg(long, value_name = "KIND[=FILE]")]
    pub report: Vec<crate::report::request::Request<MatchFormat>>,
    /// The older form of --report: one more report on standard output,
    /// human (default), json, html (match: one page stepping through every
    /// game with every bot's lines and the board; tournament: the board
    /// drawn on its pages, which `--out` always holds) or junit.
    #[arg(long, value_enum)]
    pub format: Option<MatchFormat>,
    /// Per-reply time limit (default: the game's, as in a single run).
    #[arg(long, value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Time limit for each bot's first reply, start-up included (over TCP,
    /// Evolution: also how long a client may take to connect, default
    /// 30s), as in a single run.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub startup_timeout: Option<Duration>,
    /// The pause before each move relayed to a bot, in which output it
    /// sends out of turn is seen, as `--silence` in a single run (default:
    /// the game's, paced by the bot; 0 for speed).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub silence: Option<Duration>,
    /// How long a bot may take to exit after its game ends (default: the
    /// game's), as in a single run.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub exit_grace: Option<Duration>,
    /// The limits every bot runs under, and its sandbox, as in a single
    /// run (the CPU time and output limits count per game).
    #[command(flatten)]
    pub limits: super::limit_flags::LimitFlags,
    /// The game's own options, as a single run takes them (QTP:
    /// `--board-size`, default 9, and `--walls`, default the referee's
    /// for the size).
    #[command(flatten)]
    pub game_options: super::game_flags::GameFlags,
    /// Every bot's environment, as in a single run.
    #[command(flatten)]
    pub bot_env: super::env_flags::EnvFlags,
}

const MATCH_HELP: &str = "Examples:\n  \
protocheck match --game kalah ./botA ./botB --games 4\n  \
protocheck match --game quoridor ./engineA ./engineB --format json\n  \
protocheck match --game dominion-text ./botA ./botB ./botC --players 4\n  \
protocheck match --game evolution ./clientA ./clientB ./clientC --games 3\n\
Exit status: 0 every bot played without a failing finding, 1 a bot had one (a forfeit), \
2 bad input or a bot that could not be started.";

/// Play every bot against every other, in both seat orders.
#[derive(Debug, clap::Args)]
#[command(after_help = TOURNAMENT_HELP)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub table: TableArgs,
    /// Bot programs, as paths or globs (`bots/*/bot`, expanded by
    /// protocheck when quoted); at least two.
    #[arg(value_name = "BOT", required = true)]
    pub bots: Vec<String>,
    /// Games per match (each ordered pair is one match; seats alternate
    /// within a match).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub games: usize,
    /// Matches played at once (default: CPUs). The results do not depend
    /// on it.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Add an Elo rating to the standings (start 1500, K 32, game by game
    /// in schedule order).
    #[arg(long)]
    pub elo: bool,
    /// The output folder: every match (JSON and page), the standings
    /// (JSON, CSV, text) and the tournament's page `index.html`.
    #[arg(long, short = 'o', value_name = "DIR", default_value = "tournament")]
    pub out: PathBuf,
    /// As `match --shrink-time`: for each forfeited game, up to this long
    /// looking for another game of its match that forfeits the same way
    /// sooner. Default 0: off.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "0s")]
    pub shrink_time: std::time::Duration,
}

const TOURNAMENT_HELP: &str = "Examples:\n  \
protocheck tournament --game kalah 'bots/*' --jobs 2\n  \
protocheck tournament --game quoridor a/engine b/engine c/engine --games 2 --elo --out results\n\
Exit status: 0 every bot played without a failing finding, 1 a bot had one (a forfeit), \
2 bad input or a bot that could not be started.";

impl TableArgs {
    fn config(&self) -> TableConfig {
        TableConfig {
            game: self.game.clone(),
            report: self.report.clone(),
            format: self.format,
            timings: Timings {
                timeout: self.timeout,
                startup_timeout: self.startup_timeout,
                exit_grace: self.exit_grace,
                silence: self.silence,
            },
            limits: self.limits.bot_limits(),
            game_options: self.game_options.values.clone(),
            env: self.bot_env.policy(),
        }
    }
}

impl MatchArgs {
    pub(super) fn config(&self) -> MatchConfig {
        MatchConfig {
            table: self.table.config(),
            bots: self.bots.clone(),
            games: self.games,
            jobs: self.jobs,
            out: self.out.clone(),
            shrink_time: self.shrink_time,
        }
    }
}

impl TournamentArgs {
    pub(super) fn config(&self) -> TournamentConfig {
        TournamentConfig {
            table: self.table.config(),
            bots: self.bots.clone(),
            games: self.games,
            jobs: self.jobs,
            elo: self.elo,
            out: self.out.clone(),
            shrink_time: self.shrink_time,
        }
    }
}
