//! Dominion, line protocol ("Version 1", `shared/rules/dominion-text.md`):
//! protocheck is the server. The check catalogue (§8), the supply card
//! names (§3.1), the grammar of every message both ways (§1, §2, §4.1), the
//! built-in players ([`players`]) and the session ([`session`]) that runs
//! whole games over the shared rule engine (`games::dominion::kingdom`).

pub mod cards;
pub mod catalogue;
pub mod grammar;
pub mod picture;
pub mod players;
pub mod session;
pub mod shrink;

use crate::games::exit::{ExitPolicy, NoExitPolicy};
use crate::games::dominion::table::{TABLE_OPTIONS, TableOptions};
use crate::games::{Defaults, Game, GameFacts, Session, Wire};
use crate::scenario_model::{Options, Origin, Play, Scenario, Span, Step, Strategy};
use crate::transport::framing::{Framer, LineFramer};
use players::BuiltInPlayer;

pub struct DominionText;

pub static DOMINION_TEXT: DominionText = DominionText;

/// §3.2: 2 players unless asked.
pub const DEFAULT_PLAYERS: u32 = 2;
/// Shuffles when a scenario gives no seed.
const DEFAULT_SEED: u64 = 1;

static FACTS: GameFacts = GameFacts {
    id: "dominion-text",
    catalogue: &catalogue::CATALOGUE,
    line_too_long: &catalogue::IO_LINE_TOO_LONG,
    // D23: 10 s per reply and for the first reply, 2 s exit grace.
    defaults: Defaults {
        reference_time_limit: "the protocol names no time limit and has no reference server; a bot that never responds is disqualified",
        ..Defaults::STANDARD
    },
    title: "Dominion (text)",
    wire: Wire::LINES,
    bot_args: &[],
    memory_limit: None,
    // No game-over message: the game ends with the bot's input.
    ends_by_closing_input: true,
    failure_ends_game,
    options: &TABLE_OPTIONS,
    explain: include_str!("explain.txt"),
    // No exit status is judged once stdin is closed (§5).
    exit: ExitPolicy {
        who: "the bot",
        status: None,
        no_exit: NoExitPolicy::after_close(&catalogue::IO_NO_EXIT),
    },
    seating: Some(crate::games::Seating {
        bots: crate::games::dominion::seats::BOTS,
        seat: match_seat,
    }),
};

/// `protocheck match`: `dominion::seats::seat_bot` with a server per seat,
/// the other bots' turns and their answers to militia relayed; built-in
/// players as in a single run (engine at seats 1 and 3, militia at 2 and 4)
/// unless `--strategy` names one for all.
fn match_seat(
    seat: usize,
    bots: usize,
    table: &Options,
) -> Result<crate::games::SeatedBot, crate::games::SetupError> {
    super::dominion::seats::seat_bot(
        &DOMINION_TEXT,
        (seat, bots, table),
        DEFAULT_SEED,
        |players, seat, seed, real, strategy| {
            let builtin = strategy.map(|s| match s {
                Strategy::Greedy => BuiltInPlayer::BigMoney,
                Strategy::Random => BuiltInPlayer::Random,
            });
            Box::new(session::TextSession::at_table(
                players, seat, seed, real, builtin,
            ))
        },
    )
}

/// §6.2: the game goes on after grammar and rule failures (the document's
/// recovery) and after unexpected output (discarded); it stops on the
/// other `io.*` failures and a failed version echo.
pub fn failure_ends_game(rule: &str) -> bool {
    if rule == catalogue::IO_UNEXPECTED_OUTPUT.id {
        return false;
    }
    rule.starts_with("io.") || rule == catalogue::HANDSHAKE_VERSION_ECHO.id
}

/// The players and the bot's seat (1-based) these options ask for, checked.
fn table(options: &TableOptions) -> Result<(u32, u32), crate::games::SetupError> {
    super::dominion::table::seating(options, DEFAULT_PLAYERS, "§3.2")
}

impl Game for DominionText {
    fn shrinker(&self) -> Option<&'static dyn crate::games::Shrinkable> {
        Some(&shrink::DOMINION_TEXT_SHRINK)
    }
    /// §1.2: one reply per line; the cap is `--max-line` (64 KiB, §1.2).
    fn framer(&self, cap: usize) -> Box<dyn Framer> {
        Box::new(LineFramer::new(cap))
    }

    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn situations(&self) -> &'static [&'static crate::coverage::Situation] {
        &crate::games::dominion::coverage::LINE_SITUATIONS
    }

    fn session(&self, options: &Options) -> Result<Box<dyn Session>, crate::games::SetupError> {
        let own: TableOptions = crate::games::options::typed(self, options)?;
        let (players, seat) = table(&own)?;
        let builtin = own.strategy.map(|s| match s {
            Strategy::Greedy => BuiltInPlayer::BigMoney,
            Strategy::Random => BuiltInPlayer::Random,
        });
        Ok(Box::new(session::TextSession::new(
            players as usize,
            seat as usize - 1,
            options.seed.unwrap_or(DEFAULT_SEED),
            builtin,
        )))
    }

    /// Whole games from the handshake to the closing of stdin, with the bot
    /// in every seat of every player count over the games (each pinned by
    /// `--players`/`--seat` when given), against militia and engine players
    /// unless `--strategy` says otherwise.
    fn generate(&self, count: usize, seed: u64, options: &Options) -> Vec<Scenario> {
        let own: TableOptions = options.of_game().unwrap_or_default();
        let tables = super::dominion::table::generated_tables(&own);
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..count)
            .map(|index| {
                let (players, seat) = tables[index % tables.len()];
                let opts = Options {
                    seed: Some(rng.u64(..)),
                    ..options.clone()
                }
                .with("players", players)
                .with("seat", seat);
                let against = match own.strategy {
                    Some(Strategy::Greedy) => "big-money",
                    Some(Strategy::Random) => "random",
                    None => "militia-engine",
                };
                Scenario {
                    name: format!(
                        "generated-{:03}-{players}p-seat{seat}-{against}",
                        index + 1
                    ),
                    game: "dominion-text".into(),
                    about: Some(format!(
                        "A whole generated game: {players} players, the bot in seat {seat}, the other seats {}.",
                        match own.strategy {
                            Some(Strategy::Greedy) => "big money",
                            Some(Strategy::Random) => "random legal",
                            None => "militia and engine players in turn (attack requests in most rounds)",
                        }
                    )),
                    rules: Vec::new(),
                    spec: None,
                    options: opts,
                    source: crate::scenario_model::generated_source(seed, index),
                    steps: vec![(Step::Play(Play::ToEnd), Span { line: 0, column: 0 })],
                    origin: Origin::Generated { seed, index },
                }
            })
            .collect()
    }
}
