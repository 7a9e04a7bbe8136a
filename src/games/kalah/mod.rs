//! Manchester Kalah: line protocol with the pie rule; the bot is an agent,
//! protocheck is the engine and the opponent. Rules: `rules/kalah.md`.

pub mod catalogue;
pub mod coverage;
pub mod grammar;
pub mod invariants;
pub mod mankalah_log;
pub mod opponent;
pub mod picture;
pub mod rules;
pub mod session;
pub mod shrink;
pub mod steer;

use crate::games::exit::{ExitPolicy, NoExitPolicy, StatusPolicy};
use crate::games::options::Typed;
use crate::games::{Defaults, Game, GameFacts, SeatedBot, Seating, Session, Wire};
use crate::scenario_model::{Options, Origin, Play, Scenario, Span, Step, Strategy, SwapPolicy};
use crate::transport::framing::{Framer, LineFramer};

pub struct Kalah;

pub static KALAH: Kalah = Kalah;

/// The reference engine's board: Kalah(7,7).
pub const DEFAULT_HOLES: u32 = 7;
pub const DEFAULT_SEEDS: u32 = 7;

/// Kalah's own options (scenario `options:`; `--holes`, `--seeds`).
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct KalahOptions {
    /// Kalah: holes per side (default 7).
    #[schemars(range(min = 1))]
    pub holes: Option<u32>,
    /// Kalah: seeds per hole (default 7).
    #[schemars(range(min = 1))]
    pub seeds: Option<u32>,
    /// The built-in opponent's strategy for `opponent: auto` and `play: to-end`.
    pub strategy: Option<Strategy>,
    /// Whether the built-in opponent takes the pie-rule swap.
    pub swap: Option<SwapPolicy>,
}

const TWO_PLAYERS: &str =
    "Kalah is a two-player game (`START;South`/`START;North` gives the bot its side)";

static FACTS: GameFacts = GameFacts {
    id: "kalah",
    catalogue: &catalogue::CATALOGUE,
    line_too_long: &catalogue::IO_LINE_TOO_LONG,
    // kalah.md §6: 10 s per reply by default; 2 s grace after END.
    defaults: Defaults {
        reference_time_limit: "the reference engine has no per-reply limit, only a budget of one hour of reply time per match",
        ..Defaults::STANDARD
    },
    title: "Kalah",
    wire: Wire::LINES,
    bot_args: &[],
    memory_limit: None,
    ends_by_closing_input: false,
    failure_ends_game: crate::games::every_failure_ends,
    options: &Typed::<KalahOptions>::new(
        &["holes", "seeds"],
        &[("players", TWO_PLAYERS), ("seat", TWO_PLAYERS)],
    ),
    explain: include_str!("explain.txt"),
    exit: ExitPolicy {
        who: "the bot",
        status: Some(StatusPolicy {
            after_end: (&catalogue::END_EXIT_STATUS, "after the game"),
            otherwise: (
                &catalogue::END_EXIT_STATUS,
                "after protocheck closed its input without END",
            ),
        }),
        no_exit: NoExitPolicy {
            after_told_end: (&catalogue::IO_NO_EXIT, "after END"),
            after_input_closed: (&catalogue::PROCESS_EOF, "after its input reached EOF"),
            after_over: (
                &catalogue::IO_NO_EXIT,
                "after the final CHANGE;…;END (END was not sent)",
            ),
            input_open: (
                &catalogue::IO_NO_EXIT,
                "where the scenario expects it to exit (no END was sent, its input is still open)",
            ),
        },
    },
    seating: Some(Seating {
        bots: 2..=2,
        seat: match_seat,
    }),
};

impl Game for Kalah {
    fn shrinker(&self) -> Option<&'static dyn crate::games::Shrinkable> {
        Some(&shrink::KALAH_SHRINK)
    }
    fn framer(&self, cap: usize) -> Box<dyn Framer> {
        Box::new(LineFramer::new(cap))
    }

    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn situations(&self) -> &'static [&'static crate::coverage::Situation] {
        coverage::SITUATIONS
    }

    fn session(&self, options: &Options) -> Result<Box<dyn Session>, crate::games::SetupError> {
        let own: KalahOptions = crate::games::options::typed(self, options)?;
        let (holes, seeds) = board_of(options);
        if !(1..=rules::MAX_HOLES as u32).contains(&holes) {
            return Err(crate::games::SetupError::OutOfRange {
                what: "holes",
                min: 1,
                max: rules::MAX_HOLES as u64,
                value: holes.into(),
            });
        }
        if !(1..=10_000).contains(&seeds) {
            return Err(crate::games::SetupError::OutOfRange {
                what: "seeds",
                min: 1,
                max: 10_000,
                value: seeds.into(),
            });
        }
        Ok(Box::new(session::KalahSession::new(
            holes as usize,
            seeds,
            own.strategy.unwrap_or(Strategy::Random),
            own.swap.unwrap_or(SwapPolicy::Random),
        )))
    }

    /// kalah.md decision 14: a real match is always Kalah(7,7), and a bot
    /// that hard-codes 7 holes or 7 seeds (the reference agent does) is
    /// conformant for every match it will play, so other boards are opt-in.
    fn outside_default_run(&self, options: &Options) -> Option<String> {
        let (holes, seeds) = board_of(options);
        ((holes, seeds) != (DEFAULT_HOLES, DEFAULT_SEEDS)).then(|| {
            format!(
                "Kalah({holes},{seeds}) board; a real match is always Kalah(7,7) (docs/games/kalah.md, decision 14); run with --all-sizes"
            )
        })
    }

    fn asks_beyond_default_run(&self, cli: &Options) -> bool {
        board_of(cli) != (DEFAULT_HOLES, DEFAULT_SEEDS)
    }

    /// Whole games with the bot as South and as North, against the random
    /// and the greedy opponent, with and without swaps (kalah.md §9.1 #15).
    fn engine_log(&self) -> Option<&'static dyn crate::games::EngineLog> {
        Some(&mankalah_log::ManKalahLog)
    }
    fn generate(&self, count: usize, seed: u64, options: &Options) -> Vec<Scenario> {
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..count)
            .map(|index| {
                let bot_side = if index % 2 == 0 { "South" } else { "North" };
                let strategy = if (index / 2) % 2 == 0 {
                    Strategy::Random
                } else {
                    Strategy::Greedy
                };
                // As South the bot meets swaps about half the time; as North
                // the opponent cannot swap (the bot decides).
                let swap = if bot_side == "South" {
                    if (index / 4) % 2 == 0 {
                        SwapPolicy::Always
                    } else {
                        SwapPolicy::Never
                    }
                } else {
                    SwapPolicy::Never
                };
                let game_seed = rng.u64(..);
                let opts = Options {
                    seed: Some(game_seed),
                    ..options.clone()
                }
                .with("strategy", strategy)
                .with("swap", swap);
                let span = Span { line: 0, column: 0 };
                Scenario {
                    name: format!(
                        "generated-{:03}-{}-{}",
                        index + 1,
                        bot_side.to_lowercase(),
                        strategy_word(strategy, swap)
                    ),
                    game: "kalah".into(),
                    about: Some(format!(
                        "A whole generated game: the bot is {bot_side}, the opponent plays {}.",
                        strategy_word(strategy, swap)
                    )),
                    rules: Vec::new(),
                    spec: None,
                    options: opts,
                    source: crate::scenario_model::generated_source(seed, index),
                    steps: vec![
                        (Step::Send(format!("START;{bot_side}")), span.clone()),
                        (Step::Play(Play::ToEnd), span),
                    ],
                    origin: Origin::Generated { seed, index },
                }
            })
            .collect()
    }
}

/// The board a scenario with these options is played on: (holes, seeds).
/// `protocheck match`: seat 1 is South, seat 2 North, each told its side by
/// `START` as the reference engine does; the pie rule is North's bot's to
/// take, relayed to South's session as a swap.
fn match_seat(
    seat: usize,
    _bots: usize,
    table: &Options,
) -> Result<SeatedBot, crate::games::SetupError> {
    let side = ["South", "North"]
        .get(seat)
        .ok_or(crate::games::SetupError::TwoPlayers { why: TWO_PLAYERS })?;
    Ok(SeatedBot {
        side: side.to_string(),
        session: KALAH.session(table)?,
        opening: vec![format!("START;{side}")],
        built_in_players: 0,
    })
}

pub fn board_of(options: &Options) -> (u32, u32) {
    let own: KalahOptions = options.of_game().unwrap_or_default();
    (
        own.holes.unwrap_or(DEFAULT_HOLES),
        own.seeds.unwrap_or(DEFAULT_SEEDS),
    )
}

fn strategy_word(strategy: Strategy, swap: SwapPolicy) -> &'static str {
    match (strategy, swap) {
        (Strategy::Random, SwapPolicy::Always) => "random-swaps",
        (Strategy::Random, _) => "random",
        (Strategy::Greedy, SwapPolicy::Always) => "greedy-swaps",
        (Strategy::Greedy, _) => "greedy",
    }
}
