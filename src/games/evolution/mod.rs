//! Evolution (NU CS 4500, Spring 2016, remote protocol 1.3): protocheck plays
//! the dealer, the bot is a TCP client (rules digest `shared/rules/evolution.md`).
//!
//! The data definitions and messages ([`model`], [`messages`]), the pure
//! rule engine ([`engine`]: boards, deck, the four steps of a turn, the
//! feeding cycle, attacks, extinction, scoring, end of game), Action4 and
//! FeedingChoice legality in the reference's order ([`action4`],
//! [`feeding`]), the reference strategy for built-in players ([`strategy`]),
//! the dealer as a state machine ([`dealer`]), the session glue
//! ([`session`]) and the check catalogue ([`catalogue`]). Messages travel
//! over TCP as JSON values (`games::evolution::framer`).

pub mod action4;
pub mod catalogue;
pub mod coverage;
pub mod dealer;
pub mod engine;
pub mod feeding;
pub mod framer;
pub mod json_stream;
pub mod messages;
pub mod model;
pub mod picture;
pub mod seating;
pub mod session;
pub mod shrink;
#[cfg(test)]
mod socket_tests;
pub mod strategy;

use crate::games::exit::{ExitPolicy, NoExitPolicy};
use crate::games::options::Typed;
use crate::games::{Defaults, Game, GameFacts, Session, Transport, Wire};
use crate::scenario_model::{Expect, Options, Origin, Play, Scenario, Span, Step, Strategy};
use crate::transport::framing::Framer;
use crate::games::evolution::framer::JsonFramer;
use dealer::Style;
use std::time::Duration;

pub struct Evolution;

pub static EVOLUTION: Evolution = Evolution;

/// Players when a scenario does not say (3 to 8 are allowed).
pub const DEFAULT_PLAYERS: u32 = 4;

/// Evolution's own options (scenario `options:`; `--players`, `--seat`).
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct EvolutionOptions {
    /// Players in all (3 to 8), the bot included; the other seats are
    /// built-in players.
    #[schemars(range(min = 1))]
    pub players: Option<u32>,
    /// The bot's seat in turn order, 1 = plays first.
    #[schemars(range(min = 1))]
    pub seat: Option<u32>,
    /// The built-in players' style (`greedy`: the reference strategy,
    /// `random`: the simple one; default: both in turn).
    pub strategy: Option<Strategy>,
}

static FACTS: GameFacts = GameFacts {
    id: "evolution",
    catalogue: &catalogue::CATALOGUE,
    line_too_long: &catalogue::IO_MESSAGE_TOO_LARGE,
    // §1.5 item 5 and §6: 1 s per reply; the sign-up gets 5 s + 5 s
    // (here: complete within 10 s of the connection); §5: 2 s to exit
    // after the close. Out-of-turn output is kept and judged at the next
    // request, so no pauses are needed to catch it.
    defaults: Defaults {
        reply_timeout: Duration::from_secs(1),
        silence: Duration::from_millis(100),
        pause: Duration::ZERO,
        reference_time_limit: "the reference server drops a player whose reply takes more than 1 s (5 s + 5 s for the sign-up)",
        ..Defaults::STANDARD
    },
    title: "Evolution",
    // §1.3: compact JSON followed by exactly one space.
    wire: Wire {
        transport: Transport::Tcp,
        message_end: b" ",
        early_output_is_next_reply: true,
    },
    bot_args: &[],
    memory_limit: None,
    ends_by_closing_input: false,
    failure_ends_game: crate::games::every_failure_ends,
    options: &Typed::<EvolutionOptions>::new(&["players", "seat"], &[]),
    explain: include_str!("explain.txt"),
    // An exit status after the close is not judged: the reference server
    // never looks at its clients' processes.
    exit: ExitPolicy {
        who: "the bot",
        status: None,
        no_exit: NoExitPolicy::always((
            &catalogue::IO_NO_EXIT,
            "after protocheck closed the connection",
        )),
    },
    seating: Some(crate::games::Seating {
        bots: seating::BOTS,
        seat: seating::match_seat,
    }),
};

impl Game for Evolution {
    fn shrinker(&self) -> Option<&'static dyn crate::games::Shrinkable> {
        Some(&shrink::EVOLUTION_SHRINK)
    }
    fn framer(&self, cap: usize) -> Box<dyn Framer> {
        Box::new(JsonFramer::new(cap))
    }

    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn situations(&self) -> &'static [&'static crate::coverage::Situation] {
        &coverage::SITUATIONS
    }

    fn session(&self, options: &Options) -> Result<Box<dyn Session>, crate::games::SetupError> {
        let own: EvolutionOptions = crate::games::options::typed(self, options)?;
        let players = own.players.unwrap_or(DEFAULT_PLAYERS);
        if !(3..=8).contains(&players) {
            return Err(crate::games::SetupError::OutOfRange {
                what: "players",
                min: 3,
                max: 8,
                value: players.into(),
            });
        }
        let seat = own.seat.unwrap_or(1);
        if !(1..=players).contains(&seat) {
            return Err(crate::games::SetupError::OutOfRange {
                what: "seat",
                min: 1,
                max: players.into(),
                value: seat.into(),
            });
        }
        let styles: &[Style] = match own.strategy {
            Some(Strategy::Random) => &[Style::Simple],
            Some(Strategy::Greedy) => &[Style::Reference],
            None => &[Style::Reference, Style::Simple],
        };
        Ok(Box::new(session::EvolutionSession::new(
            players as usize,
            seat as usize - 1,
            styles,
            options.seed.unwrap_or(0),
        )))
    }

    /// Whole games with the bot in every seat of every player count (3–8),
    /// unless `--players`/`--seat` pin them.
    fn generate(&self, count: usize, seed: u64, options: &Options) -> Vec<Scenario> {
        let own: EvolutionOptions = options.of_game().unwrap_or_default();
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..count)
            .map(|index| {
                let players = own.players.unwrap_or(3 + (index % 6) as u32);
                let seat = own
                    .seat
                    .unwrap_or(1 + ((index / 6 + index) % players as usize) as u32);
                let game_seed = rng.u64(..);
                let opts = Options {
                    seed: Some(game_seed),
                    ..options.clone()
                }
                .with("players", players)
                .with("seat", seat);
                let span = Span { line: 0, column: 0 };
                Scenario {
                    name: format!("generated-{:03}-{players}p-seat{seat}", index + 1),
                    game: "evolution".into(),
                    about: Some(format!(
                        "A whole generated game: {players} players, the bot in seat {seat}, built-in players in the others."
                    )),
                    rules: Vec::new(),
                    spec: None,
                    options: opts,
                    source: crate::scenario_model::generated_source(seed, index),
                    steps: vec![
                        (Step::Expect(Expect::LegalMove), span.clone()),
                        (Step::Play(Play::ToEnd), span),
                    ],
                    origin: Origin::Generated { seed, index },
                }
            })
            .collect()
    }
}
