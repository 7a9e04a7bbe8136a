//! Quoridor Text Protocol: protocheck is the controller, the bot an engine.
//! Rules: `rules/quoridor.md`.

pub mod catalogue;
pub mod coverage;
pub mod expect;
pub mod expectations;
pub mod invariants;
pub mod notation;
pub mod picture;
pub mod player;
pub mod rules;
pub mod session;
pub mod shrink;

use crate::games::exit::{ExitPolicy, NoExitPolicy, StatusPolicy};
use crate::games::options::Typed;
use crate::games::{Defaults, Game, GameFacts, SeatedBot, Seating, Session, Wire};
use crate::scenario_model::{Options, Origin, Play, Scenario, Span, Step, Strategy};
use crate::transport::framing::{Framer, LineFramer};
use rules::Colour;
use std::time::Duration;

pub struct Quoridor;

pub static QUORIDOR: Quoridor = Quoridor;

/// The referee's memory limit (quoridor.md §6).
pub const MEMORY_LIMIT: u64 = 950 * 1000 * 1000;

/// Quoridor's own options (scenario `options:`; `--board-size`, `--walls`).
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct QuoridorOptions {
    /// Quoridor: board size.
    #[schemars(range(min = 1))]
    pub board_size: Option<u32>,
    /// Quoridor: walls per player.
    pub walls: Option<u32>,
    /// The colour the bot plays in generated play (`black` or `white`).
    pub colour: Option<String>,
    /// The built-in player's strategy for `opponent: auto` and `play: to-end`.
    pub strategy: Option<Strategy>,
}

const TWO_PLAYERS: &str = "Quoridor is played by two (`colour` chooses the bot's side)";

static FACTS: GameFacts = GameFacts {
    id: "quoridor",
    catalogue: &catalogue::CATALOGUE,
    line_too_long: &catalogue::IO_LINE_TOO_LONG,
    // quoridor.md §6: 30 s per response (the referee's move limit),
    // 10 s for the first; 2 s to exit after `quit`.
    defaults: Defaults {
        reply_timeout: Duration::from_secs(30),
        silence: Duration::from_millis(100),
        // Responses are counted, so stray output shows up without pauses.
        pause: Duration::ZERO,
        reference_time_limit: "the Athens referee gives each `genmove` min(30 s, the engine's remaining game time of 20·N s), and stops waiting for other responses after 2 s",
        ..Defaults::STANDARD
    },
    title: "Quoridor",
    wire: Wire::LINES,
    // The referee always starts engines as `./engine -seed <n>` (§1.1).
    bot_args: &["-seed", "42"],
    memory_limit: Some((MEMORY_LIMIT, &catalogue::PROCESS_MEMORY)),
    ends_by_closing_input: false,
    failure_ends_game: crate::games::every_failure_ends,
    options: &Typed::<QuoridorOptions>::new(
        &["board-size", "walls"],
        &[("players", TWO_PLAYERS), ("seat", TWO_PLAYERS)],
    ),
    explain: include_str!("explain.txt"),
    exit: ExitPolicy {
        who: "the engine",
        status: Some(StatusPolicy {
            after_end: (&catalogue::QUIT_EXIT_STATUS, "after answering `quit`"),
            otherwise: (&catalogue::PROCESS_EOF, "at end of input (no `quit`)"),
        }),
        no_exit: NoExitPolicy {
            after_told_end: (&catalogue::IO_NO_EXIT, "after answering `quit`"),
            after_input_closed: (&catalogue::PROCESS_EOF, "after its input reached EOF"),
            // `quit` answered is the only end of a QTP game.
            after_over: (&catalogue::IO_NO_EXIT, "after answering `quit`"),
            input_open: (
                &catalogue::IO_NO_EXIT,
                "where the scenario expects it to exit (no `quit` answered, its input still open)",
            ),
        },
    },
    seating: Some(Seating {
        bots: 2..=2,
        seat: match_seat,
    }),
};

impl Game for Quoridor {
    fn shrinker(&self) -> Option<&'static dyn crate::games::Shrinkable> {
        Some(&shrink::QTP_SHRINK)
    }
    fn expectations(&self) -> &'static [crate::games::OwnExpectation] {
        expectations::EXPECTATIONS
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
        let own: QuoridorOptions = crate::games::options::typed(self, options)?;
        let colour = match own.colour.as_deref() {
            None => Colour::Black,
            Some(c) => notation::parse_colour(c)
                .ok_or_else(|| crate::games::SetupError::Colour { given: c.to_string() })?,
        };
        if let Some(n) = own.board_size {
            rules::validate_size(u8::try_from(n).unwrap_or(0))?;
        }
        Ok(Box::new(session::QtpSession::new(
            colour,
            own.strategy.unwrap_or(Strategy::Greedy),
        )))
    }

    /// Whole games on 5×5, 7×7 and 9×9 (or `--board-size`), the engine
    /// playing black and white in turn against both built-in players,
    /// started and finished the way the referee does (§4).
    fn generate(&self, count: usize, seed: u64, options: &Options) -> Vec<Scenario> {
        let own: QuoridorOptions = options.of_game().unwrap_or_default();
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..count)
            .map(|index| {
                let size = own.board_size.unwrap_or([5, 7, 9][index % 3]);
                let walls = own.walls.unwrap_or_else(|| u32::from(rules::default_walls(size as u8)));
                let colour = if (index / 3) % 2 == 0 { "black" } else { "white" };
                let strategy = if (index / 6) % 2 == 0 { Strategy::Greedy } else { Strategy::Random };
                let span = Span { line: 0, column: 0 };
                let word = if strategy == Strategy::Greedy { "runner" } else { "random" };
                Scenario {
                    name: format!("generated-{:03}-{size}x{size}-{colour}-vs-{word}", index + 1),
                    game: "quoridor".into(),
                    about: Some(format!("A whole generated game on {size}×{size} with {walls} walls each: the engine plays {colour} (genmove), protocheck's {word} player the other colour.")),
                    rules: Vec::new(),
                    spec: None,
                    options: Options {
                        seed: Some(rng.u64(..)),
                        ..options.clone()
                    }
                    .with("strategy", strategy)
                    .with("colour", colour),
                    source: crate::scenario_model::generated_source(seed, index),
                    steps: ["name".to_string(), format!("boardsize {size}"), "clear_board".into(), format!("walls {walls}")]
                        .into_iter()
                        .map(|c| (Step::Send(c), span.clone()))
                        .chain(std::iter::once((Step::Play(Play::ToEnd), span.clone())))
                        .collect(),
                    origin: Origin::Generated { seed, index },
                }
            })
            .collect()
    }
}

/// `protocheck match`: black (seat 1) and white, each engine set up as the
/// Athens referee sets it up (`name`, `boardsize`, `clear_board`, `walls`),
/// on the board `--board-size`/`--walls` give (default 9, and the referee's
/// walls for the size).
fn match_seat(
    seat: usize,
    _bots: usize,
    table: &Options,
) -> Result<SeatedBot, crate::games::SetupError> {
    let side = ["black", "white"]
        .get(seat)
        .ok_or(crate::games::SetupError::TwoPlayers { why: TWO_PLAYERS })?;
    let own: QuoridorOptions = crate::games::options::typed(&QUORIDOR, table)?;
    let size = own.board_size.unwrap_or(9);
    rules::validate_size(u8::try_from(size).unwrap_or(0))
        .map_err(|source| crate::games::SetupError::MatchBoardSize {
            size,
            source: crate::games::RulesError::new(source),
        })?;
    let walls = own
        .walls
        .unwrap_or_else(|| u32::from(rules::default_walls(size as u8)));
    let options = table
        .clone()
        .with("colour", side)
        .with("board-size", size)
        .with("walls", walls);
    Ok(SeatedBot {
        side: side.to_string(),
        session: QUORIDOR.session(&options)?,
        opening: vec![
            "name".to_string(),
            format!("boardsize {size}"),
            "clear_board".into(),
            format!("walls {walls}"),
        ],
        built_in_players: 0,
    })
}
