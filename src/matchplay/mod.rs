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
pub use tournament::{TournamentConfig, tournament};

use crate::config::{BotLimits, RunConfigBuilder, Timings};
use crate::controller::RunConfig;
use crate::fatal::Fatal;
use crate::games::Game;
use crate::games::Seating;
use crate::games::options::GameOptionValues;
use crate::pool::{Outcome, Pool, StopToken};
use crate::scenario::Options;
use crate::transport::BotCommand;
use crate::transport::environment::EnvPolicy;
use std::path::{Path, PathBuf};
use std::time::Duration;
use table::{GameRecord, Player};

/// A match (the command line's help says what each option means).
#[derive(Debug)]
pub struct MatchConfig {
    pub table: TableConfig,
    /// The bot programs, as paths or globs, in the seat order of game 1.
    pub bots: Vec<String>,
    /// Games to play, seats rotating.
    pub games: usize,
    /// Games played at once.
    pub jobs: Option<usize>,
    /// Also write the match (JSON) to this file.
    pub out: Option<PathBuf>,
    /// How long to look for a shorter forfeit per forfeited game (0: off).
    pub shrink_time: Duration,
}

/// What every game of a match or a tournament is played with.
#[derive(Debug)]
pub struct TableConfig {
    /// The game the bots play, as the user named it.
    pub game: String,
    /// The reports to write (`--report KIND[=FILE]`, repeatable), every
    /// one from the same games; none asked for: human on standard output.
    pub report: Vec<crate::report::request::Request<MatchFormat>>,
    /// The older form of `--report`: one more report on standard output.
    pub format: Option<MatchFormat>,
    /// The time limits (`None`: the game's).
    pub timings: Timings,
    /// The limits of every bot process.
    pub limits: BotLimits,
    /// The game's own options.
    pub game_options: GameOptionValues,
    /// Every bot's environment.
    pub env: EnvPolicy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MatchFormat {
    Human,
    Json,
    Html,
    /// One testcase per game per bot.
    Junit,
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
    pub(crate) fn new(args: &TableConfig, stop: &StopToken) -> Result<Setup, Fatal> {
        let playable = || {
            crate::games::ALL
                .iter()
                .filter(|g| g.facts().seating.is_some())
                .map(|g| g.id())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let game = crate::games::by_id(&args.game).ok_or_else(|| {
            Fatal::usage(format!(
                "unknown game `{}`: protocheck plays matches of {}",
                args.game,
                playable()
            ))
        })?;
        let seating = game.facts().seating.as_ref().ok_or_else(|| {
            Fatal::usage(format!(
                "matches of `{}` are not supported yet: protocheck plays matches of {}",
                args.game,
                playable()
            ))
        })?;
        // Each seat's bot is set per game.
        let no_bot = BotCommand {
            program: String::new(),
            args: Vec::new(),
            env: Default::default(),
            workdir: None,
        };
        let cfg = RunConfigBuilder::new(no_bot, &args.limits, stop)
            .timings(args.timings)
            .pictures(report::draws_pictures(&args.report, args.format))
            .build();
        Ok(Setup {
            game,
            cfg,
            seating,
            table: Options {
                game: args.game_options.clone(),
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
            return Err(Fatal::usage(format!(
                "{} bots given: a {} table seats {want}",
                bots,
                self.game.facts().title
            )));
        }
        for seat in 0..bots {
            (self.seating.seat)(seat, bots, &self.table).map_err(Fatal::usage)?;
        }
        Ok(())
    }

    /// Play one game, `players[0]` at seat 1. A bot that cannot be started
    /// is bad input (exit 2), as in a single run.
    pub(crate) fn play(&self, number: usize, players: &[&Player]) -> Result<GameRecord, Fatal> {
        table::play(self, number, players).map_err(|e| Fatal::Bot(e.into()))
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
        .map_err(|problems| Fatal::usage(problems.join("\nerror: ")))?;
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
    table: &TableConfig,
    games: usize,
    bots: &[String],
    stop: &StopToken,
) -> Result<(Setup, PathBuf, Vec<Player>), Fatal> {
    let setup = Setup::new(table, stop)?;
    if games == 0 {
        return Err(Fatal::usage("--games must be at least 1"));
    }
    // Before any bot starts: `--sandbox require` on a system without every
    // layer stops here.
    crate::transport::sandbox::settle(&setup.cfg.limits.sandbox)
        .map_err(|e| Fatal::usage(e.to_string()))?;
    let cwd =
        std::env::current_dir().map_err(|e| Fatal::io("cannot tell the current folder", e))?;
    let policy = table.env.clone();
    let game_variables =
        crate::transport::environment::game_variables(setup.game.facts().wire.transport);
    if let Some(line) = policy.note_here(game_variables).line() {
        eprintln!("protocheck: {line}");
    }
    let players = players(bots, &cwd, &policy)?;
    Ok((setup, cwd, players))
}

/// `protocheck match`.
pub fn play_match(args: &MatchConfig, stop: &StopToken) -> Result<i32, Fatal> {
    let reports = report::plan(&args.table.report, args.table.format)
        .map_err(|e| Fatal::usage(e.to_string()))?;
    let (setup, cwd, players) = seat_players(&args.table, args.games, &args.bots, stop)?;
    setup.check_table(players.len())?;
    let sandbox = crate::transport::sandbox::settle(&setup.cfg.limits.sandbox)
        .map_err(|e| Fatal::usage(e.to_string()))?;
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
    write_reports(&result, &reports)
        .map_err(|e| Fatal::Io(crate::fatal::IoError::Said(e.to_string())))?;
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
    crate::config::jobs(asked).max(1)
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
            Outcome::Panicked(why) => Err(Fatal::Internal(format!(
                "internal error in protocheck (please report it): {why}"
            ))),
            Outcome::NotRun => Err(Fatal::Internal("not played: protocheck was stopped".into())),
        })
        .collect()
}

pub(crate) fn write_file(path: &Path, text: &str) -> Result<(), Fatal> {
    std::fs::write(path, text).map_err(|e| Fatal::io(format!("cannot write {}", path.display()), e))
}

/// Every report of a match, each from the same record (here, above both
/// the record and the JUnit writer, which reads it).
fn write_reports(
    report: &MatchReport,
    reports: &[crate::report::request::Request<MatchFormat>],
) -> Result<(), crate::report::request::RequestError> {
    crate::report::request::write_all(reports, |kind, _| match kind {
        MatchFormat::Human => report.human(),
        MatchFormat::Json => report.json(),
        MatchFormat::Html => report.html(),
        MatchFormat::Junit => junit::render(&[(None, report)]),
    })
}
