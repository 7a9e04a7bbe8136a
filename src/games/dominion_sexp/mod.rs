//! Dominion Protocol v1 with S-expressions (`dominion-sexp`): Matthew Flatt's
//! course protocol. Rules: `rules/dominion-sexp.md`.
//!
//! protocheck is the dealer; the bot takes one of 2–4 seats, built-in
//! players ([`players`]) the others. Replies are framed as S-expressions
//! ([`framer`] on the streaming [`sexp`] reader), classified by the grammar
//! of plays ([`messages`]) and judged by the rule engine ([`rules`]) in the
//! state the dealer tracks ([`session`]).

pub mod catalogue;
pub mod framer;
pub mod messages;
pub mod picture;
pub mod players;
pub mod rules;
pub mod session;
pub mod shrink;
pub mod sexp;

use crate::games::exit::{ExitPolicy, NoExitPolicy};
use crate::games::dominion::table::{TABLE_OPTIONS, TableOptions};
use crate::games::{Defaults, Game, GameFacts, Session, Wire};
use crate::scenario_model::{Options, Origin, Play, Scenario, Span, Step, Strategy};
use crate::transport::framing::Framer;
use players::BuiltInPlayer;

pub struct DominionSexp;

pub static DOMINION_SEXP: DominionSexp = DominionSexp;

/// Decision D16: 2 players unless asked.
pub const DEFAULT_PLAYERS: u32 = 2;
/// Shuffles when a scenario gives no seed.
const DEFAULT_SEED: u64 = 1;

static FACTS: GameFacts = GameFacts {
    id: "dominion-sexp",
    catalogue: &catalogue::CATALOGUE,
    line_too_long: &catalogue::IO_LINE_TOO_LONG,
    // D11: 10 s per reply and for the first reply, 2 s exit grace.
    defaults: Defaults {
        reference_time_limit: "the reference server has no time limit at all",
        ..Defaults::STANDARD
    },
    title: "Dominion (S-expressions)",
    wire: Wire::LINES,
    bot_args: &[],
    memory_limit: None,
    // v1 has no game-over message: the game ends with the bot's input.
    ends_by_closing_input: true,
    failure_ends_game: crate::games::every_failure_ends,
    options: &TABLE_OPTIONS,
    explain: include_str!("explain.txt"),
    // No exit status is judged once stdin is closed (D12: the reference
    // players exit 1 at EOF).
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

/// `protocheck match`: `dominion::seats::seat_bot` with a dealer per seat;
/// built-in players play big money (random legal plays with `--strategy random`).
fn match_seat(
    seat: usize,
    bots: usize,
    table: &Options,
) -> Result<crate::games::SeatedBot, crate::games::SetupError> {
    super::dominion::seats::seat_bot(
        &DOMINION_SEXP,
        (seat, bots, table),
        DEFAULT_SEED,
        |players, seat, seed, real, strategy| {
            let builtin = strategy.map(|s| match s {
                Strategy::Greedy => BuiltInPlayer::BigMoney,
                Strategy::Random => BuiltInPlayer::RandomLegal,
            });
            Box::new(session::SexpSession::at_table(
                players, seat, seed, real, builtin,
            ))
        },
    )
}

/// The players and the bot's seat (1-based) these options ask for, checked.
fn table(options: &TableOptions) -> Result<(u32, u32), crate::games::SetupError> {
    super::dominion::table::seating(
        options,
        DEFAULT_PLAYERS,
        "the reference's driver runs 2 to 4",
    )
}

impl Game for DominionSexp {
    fn shrinker(&self) -> Option<&'static dyn crate::games::Shrinkable> {
        Some(&shrink::DOMINION_SEXP_SHRINK)
    }
    /// Replies are S-expressions, not lines; their cap is the rules'
    /// 64 KiB per reply (§1.2), whatever the line cap.
    fn framer(&self, _cap: usize) -> Box<dyn Framer> {
        Box::new(framer::SexpFramer::new())
    }

    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn situations(&self) -> &'static [&'static crate::coverage::Situation] {
        &crate::games::dominion::coverage::V1_SITUATIONS
    }

    fn session(&self, options: &Options) -> Result<Box<dyn Session>, crate::games::SetupError> {
        let own: TableOptions = crate::games::options::typed(self, options)?;
        let (players, seat) = table(&own)?;
        let builtin = own.strategy.map(|s| match s {
            Strategy::Greedy => BuiltInPlayer::BigMoney,
            Strategy::Random => BuiltInPlayer::RandomLegal,
        });
        Ok(Box::new(
            session::SexpSession::new(
                players as usize,
                seat as usize - 1,
                options.seed.unwrap_or(DEFAULT_SEED),
                builtin,
            )
            .with_asked_players(own.players.map(|p| p as usize)),
        ))
    }

    /// Whole games from the deal to the last clean, with the bot in every
    /// seat of every player count over the games (each pinned by
    /// `--players`/`--seat` when given).
    fn generate(&self, count: usize, seed: u64, options: &Options) -> Vec<Scenario> {
        let own: TableOptions = options.of_game().unwrap_or_default();
        let tables = super::dominion::table::generated_tables(&own);
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..count)
            .map(|index| {
                let (players, seat) = tables[index % tables.len()];
                // Every other round of tables, the built-in seats all play
                // big money (the fastest games); otherwise they alternate.
                let strategy = own.strategy.or(
                    ((index / tables.len()) % 2 == 1).then_some(Strategy::Greedy),
                );
                let mut opts = Options {
                    seed: Some(rng.u64(..)),
                    ..options.clone()
                }
                .with("players", players)
                .with("seat", seat);
                opts.game.remove("strategy");
                if let Some(s) = strategy {
                    opts = opts.with("strategy", s);
                }
                let span = Span { line: 0, column: 0 };
                let against = match strategy {
                    Some(Strategy::Greedy) => "big-money",
                    Some(Strategy::Random) => "random",
                    None => "mixed",
                };
                Scenario {
                    name: format!(
                        "generated-{:03}-{players}p-seat{seat}-{against}",
                        index + 1
                    ),
                    game: "dominion-sexp".into(),
                    about: Some(format!(
                        "A whole generated game: {players} players, the bot in seat {seat}, the other seats {}.",
                        match strategy {
                            Some(Strategy::Greedy) => "big money",
                            Some(Strategy::Random) => "random legal",
                            None => "big money and random legal in turn",
                        }
                    )),
                    rules: Vec::new(),
                    spec: None,
                    options: opts,
                    source: crate::scenario_model::generated_source(seed, index),
                    steps: vec![(Step::Play(Play::ToEnd), span)],
                    origin: Origin::Generated { seed, index },
                }
            })
            .collect()
    }
}
