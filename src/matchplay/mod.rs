//! `protocheck match` and `protocheck tournament`: protocheck is the engine
//! between real bots. Each game seats two bots, each refereed by its own
//! ordinary session (`controller::play_match`), so every message is judged
//! with the rules and ids of a single run; the first failure at the table
//! ends the game and its bot loses by forfeit. A match is `--games N` games
//! between two bots, seats alternating; a tournament is a round robin, each
//! pair in both seat orders (`tournament`), with standings (`standings`).
//!
//! Exit status: 0 every bot played without a failing finding, 1 a bot had
//! a failing finding (a forfeit, or e.g. a bad exit after the end), 2 bad
//! input or a bot that could not be started.

mod junit;
mod page;
mod report;
pub mod schema;
mod standings;
mod table;
mod tournament;

pub use report::{MatchReport, TournamentReport};
pub use tournament::{TournamentArgs, tournament};

use crate::cli::Fatal;
use crate::controller::{RunConfig, TcpConfig};
use crate::games::Game;
use crate::games::Seating;
use crate::pool::{Outcome, Pool, StopToken};
use crate::scenario::Options;
use crate::transport::BotCommand;
use std::path::{Path, PathBuf};
use std::time::Duration;
use table::{GameRecord, Player};

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
    pub limits: crate::cli::limit_flags::LimitFlags,
    /// The game's own options, as a single run takes them (QTP:
    /// `--board-size`, default 9, and `--walls`, default the referee's
    /// for the size).
    #[command(flatten)]
    pub game_options: crate::cli::game_flags::GameFlags,
    /// Every bot's environment, as in a single run.
    #[command(flatten)]
    pub bot_env: crate::cli::env_flags::EnvFlags,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MatchFormat {
    Human,
    Json,
    Html,
    /// One testcase per game per bot.
    Junit,
}

const MATCH_HELP: &str = "Examples:\n  \
protocheck match --game kalah ./botA ./botB --games 4\n  \
protocheck match --game quoridor ./engineA ./engineB --format json\n  \
protocheck match --game dominion-text ./botA ./botB ./botC --players 4\n  \
protocheck match --game evolution ./clientA ./clientB ./clientC --games 3\n\
Exit status: 0 every bot played without a failing finding, 1 a bot had one (a forfeit), \
2 bad input or a bot that could not be started.";

fn parse_duration(s: &str) -> Result<Duration, String> {
    humantime::parse_duration(s).map_err(|e| format!("{e} (write e.g. 2s, 500ms, 1m)"))
}

/// Everything a game needs besides its players.
pub(crate) struct Setup {
    pub game: &'static dyn Game,
    pub cfg: RunConfig,
    pub seating: &'static Seating,
    /// The match's options: the game's own flags (each game's seed is
    /// added per game).
    pub table: Options,
}

impl Setup {
    pub(crate) fn new(args: &TableArgs, stop: &StopToken) -> Result<Setup, Fatal> {
        let playable = || {
            crate::games::ALL
                .iter()
                .filter(|g| g.facts().seating.is_some())
                .map(|g| g.id())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let game = crate::games::by_id(&args.game).ok_or_else(|| {
            Fatal::Usage(format!(
                "unknown game `{}`: protocheck plays matches of {}",
                args.game,
                playable()
            ))
        })?;
        let seating = game.facts().seating.as_ref().ok_or_else(|| {
            Fatal::Usage(format!(
                "matches of `{}` are not supported yet: protocheck plays matches of {}",
                args.game,
                playable()
            ))
        })?;
        let cfg = RunConfig {
            bot: BotCommand {
                program: String::new(),
                args: Vec::new(),
                env: Default::default(),
                workdir: None,
            },
            limits: args.limits.limits(),
            timeout: args.timeout,
            startup_timeout: args.startup_timeout,
            exit_grace: args.exit_grace,
            silence: args.silence,
            strict: false,
            max_output: args.limits.max_output,
            tcp: TcpConfig::default(),
            pictures: report::draws_pictures(&args.report, args.format),
            stop: stop.clone(),
        };
        Ok(Setup {
            game,
            cfg,
            seating,
            table: Options {
                game: args.game_options.values.clone(),
                ..Options::default()
            },
        })
    }

    /// Whether `bots` bots make a table of this game, and the options too
    /// (each seat set once, as a game would set it): bad input otherwise,
    /// before any bot runs.
    pub(crate) fn check_table(&self, bots: usize) -> Result<(), Fatal> {
        let range = &self.seating.bots;
        if !range.contains(&bots) {
            let want = if range.start() == range.end() {
                format!("{}", range.start())
            } else {
                format!("{} to {}", range.start(), range.end())
            };
            return Err(Fatal::Usage(format!(
                "{} bots given: a {} table seats {want}",
                bots,
                self.game.facts().title
            )));
        }
        for seat in 0..bots {
            (self.seating.seat)(seat, bots, &self.table).map_err(Fatal::Usage)?;
        }
        Ok(())
    }

    /// Play one game, `players[0]` at seat 1. A bot that cannot be started
    /// is bad input (exit 2), as in a single run.
    pub(crate) fn play(&self, number: usize, players: &[&Player]) -> Result<GameRecord, Fatal> {
        table::play(self, number, players).map_err(|e| Fatal::Bot(e.to_string()))
    }
}

/// The bots given as paths or globs, read the way `grade` reads a roster.
/// Each is named by its folder when the folders differ, by its file name
/// otherwise; a bot given twice is told apart by `#2`. Each runs in its own
/// folder, as `grade` runs it.
pub(crate) fn players(
    args: &[String],
    cwd: &Path,
    env: &crate::transport::environment::EnvPolicy,
) -> Result<Vec<Player>, Fatal> {
    let entries = crate::grade::roster::programs(args, cwd)
        .map_err(|problems| Fatal::Usage(problems.join("\nerror: ")))?;
    Ok(entries
        .into_iter()
        .map(|e| Player {
            command: e
                .command
                .iter()
                .map(|w| crate::transport::shell_quote(w))
                .collect::<Vec<_>>()
                .join(" "),
            bot: BotCommand {
                program: e.command[0].clone(),
                args: e.command[1..].to_vec(),
                env: crate::transport::environment::BotEnv {
                    policy: env.clone(),
                    game: Vec::new(),
                },
                // Each bot in its own folder, as `grade` runs it.
                workdir: Some(e.workdir),
            },
            id: e.id,
        })
        .collect())
}

/// What `match` and `tournament` both start with: the table set up, at
/// least one game asked for, the current folder and the bots named.
pub(crate) fn seat_players(
    table: &TableArgs,
    games: usize,
    bots: &[String],
    stop: &StopToken,
) -> Result<(Setup, PathBuf, Vec<Player>), Fatal> {
    let setup = Setup::new(table, stop)?;
    if games == 0 {
        return Err(Fatal::Usage("--games must be at least 1".into()));
    }
    // Before any bot starts: `--sandbox require` on a system without every
    // layer stops here.
    crate::transport::sandbox::settle(&setup.cfg.limits.sandbox).map_err(Fatal::Usage)?;
    let cwd = std::env::current_dir()
        .map_err(|e| Fatal::Io(format!("cannot tell the current folder: {e}")))?;
    let policy = table.bot_env.policy();
    let game_variables =
        crate::transport::environment::game_variables(setup.game.facts().wire.transport);
    if let Some(line) = policy.note_here(game_variables).line() {
        eprintln!("protocheck: {line}");
    }
    let players = players(bots, &cwd, &policy)?;
    Ok((setup, cwd, players))
}

/// `protocheck match`.
pub fn play_match(args: &MatchArgs, stop: &StopToken) -> Result<i32, Fatal> {
    let reports = report::plan(&args.table.report, args.table.format).map_err(Fatal::Usage)?;
    let (setup, cwd, players) = seat_players(&args.table, args.games, &args.bots, stop)?;
    setup.check_table(players.len())?;
    let sandbox =
        crate::transport::sandbox::settle(&setup.cfg.limits.sandbox).map_err(Fatal::Usage)?;
    // Game 1: the bots in the order given; each game after, rotated by one
    // (two bots: seats alternate).
    let play_game = |number: usize| {
        let mut seated: Vec<&Player> = players.iter().collect();
        seated.rotate_left((number - 1) % players.len());
        setup.play(number, &seated)
    };
    let mut games = in_order(args.games, jobs(args.jobs), &setup.cfg.stop, |i| {
        play_game(i + 1)
    })?;
    if !args.shrink_time.is_zero() {
        for record in &mut games {
            shrink_forfeit(record, args.shrink_time, &setup.cfg.stop, &play_game);
        }
    }
    let result = report::MatchReport::new(setup.game.id(), &sandbox, &players, games);
    if let Some(path) = &args.out {
        write_file(&cwd.join(path), &result.json())?;
    }
    report::write(&result, &reports).map_err(Fatal::Io)?;
    Ok(result.exit_code())
}

/// `--shrink-time`: a forfeited game's shortest counterpart among the
/// match's other games, noted on its record (`crate::shrink::matches`).
pub(crate) fn shrink_forfeit(
    record: &mut GameRecord,
    budget: Duration,
    stop: &StopToken,
    play_game: &dyn Fn(usize) -> Result<GameRecord, Fatal>,
) {
    let forfeit_of = |r: &GameRecord| {
        r.forfeit
            .as_ref()
            .filter(|f| !f.after_result)
            .map(|f| crate::shrink::matches::Forfeit {
                bot: f.bot.clone(),
                rule: f.rule.clone(),
                moves: r.moves,
            })
    };
    let Some(forfeit) = forfeit_of(record) else {
        return;
    };
    eprintln!(
        "protocheck: shrinking game {} (up to {})",
        record.number,
        humantime::format_duration(budget)
    );
    let shrinking = crate::shrink::matches::shrink(record.number, &forfeit, budget, stop, |n| {
        play_game(n).ok().as_ref().and_then(forfeit_of)
    });
    record.shrunk = Some(shrinking.summary(record.number, budget));
}

/// `--jobs`, by default the CPUs.
pub(crate) fn jobs(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// `play(0)` to `play(count - 1)` on the pool, at most `jobs` at once, the
/// results in that order whatever finished first: a game or match depends
/// only on its number, so neither the results nor their order depend on
/// `jobs`. The first error in that order is the answer; a game that
/// panicked is protocheck's error, and the other games still finish.
pub(crate) fn in_order<T: Send>(
    count: usize,
    jobs: usize,
    stop: &StopToken,
    play: impl Fn(usize) -> Result<T, Fatal> + Sync,
) -> Result<Vec<T>, Fatal> {
    Pool::new(jobs, stop)
        .run(count, |job| play(job.index), &mut |_| {})
        .into_iter()
        .map(|outcome| match outcome {
            Outcome::Done(result) => result,
            Outcome::Panicked(why) => Err(Fatal::Bot(format!(
                "internal error in protocheck (please report it): {why}"
            ))),
            Outcome::NotRun => Err(Fatal::Bot("not played: protocheck was stopped".into())),
        })
        .collect()
}

pub(crate) fn write_file(path: &Path, text: &str) -> Result<(), Fatal> {
    std::fs::write(path, text)
        .map_err(|e| Fatal::Io(format!("cannot write {}: {e}", path.display())))
}
