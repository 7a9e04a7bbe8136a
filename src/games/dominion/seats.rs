//! A Dominion table in a match (`protocheck match`, docs/match.md): which
//! seats other real bots take (their plays reach this seat's session
//! relayed from their own sessions), and how the game ended for this
//! session's bot. Shared by both protocols; each names its seats `seat N`.

use super::ending::Ending as Why;
use super::engine::DominionTable;
use super::table::TableOptions;
use crate::games::{EndResult, Ending};
use crate::scenario::{Options, Strategy};

/// How many real bots one Dominion table seats: 2 to 4, as a game has
/// players (dominion-text §3.2, dominion-sexp §3.2).
pub const BOTS: std::ops::RangeInclusive<usize> = 2..=4;

/// A match table: how many players it seats (the real bots at seats 1 to
/// `bots`, built-in players after them) and the built-in players' strategy
/// if the options name one. `game` reads the options as its single run
/// does; `Err` says what makes no table, as to the user.
pub fn match_table(
    game: &dyn crate::games::Game,
    bots: usize,
    table: &Options,
) -> Result<(usize, Option<Strategy>), String> {
    let own: TableOptions = crate::games::options::typed(game, table)?;
    if let Some(seat) = own.seat {
        return Err(format!(
            "--seat {seat} means nothing in a match: the bots take seats 1 to {bots} in the order given, rotating each game"
        ));
    }
    let players = own.players.map_or(bots, |p| p as usize);
    if !(2..=4).contains(&players) {
        return Err(format!("--players must be 2, 3 or 4, not {players}"));
    }
    if players < bots {
        return Err(format!(
            "--players {players} seats fewer players than the {bots} bots given"
        ));
    }
    Ok((players, own.strategy))
}

/// Which seats of the table are other real bots. Empty in a single run:
/// every seat but the bot's is built in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relayed(Vec<bool>);

impl Relayed {
    /// `seats` (0-based) of a table of `players` are real bots relayed
    /// here; seats beyond the table are ignored.
    pub fn new(players: usize, seats: &[usize]) -> Relayed {
        Relayed((0..players).map(|s| seats.contains(&s)).collect())
    }

    /// Whether `seat`'s plays come relayed.
    pub fn at(&self, seat: usize) -> bool {
        self.0.get(seat).copied().unwrap_or(false)
    }

    /// Whether this is a match table (some seat is relayed).
    pub fn any(&self) -> bool {
        self.0.contains(&true)
    }
}

/// A seat as match reports name it (1-based).
pub fn side(seat: usize) -> String {
    format!("seat {}", seat + 1)
}

/// How the game ended for the bot at `bot`, once it has: won alone, lost,
/// or drew when it shares the top (a tie the protocol's rules do not break:
/// dominion-sexp D7 shares every tie; dominion-text breaks it on fewer
/// turns first). The score is each seat's victory points.
pub fn ending(game: &DominionTable, bot: usize) -> Option<Ending> {
    let why = game.ended?;
    let winners = game.winners();
    let result = match (winners.contains(&bot), winners.len()) {
        (true, 1) => EndResult::Won,
        (true, _) => EndResult::Drew,
        (false, _) => EndResult::Lost,
    };
    let scores = game.scores();
    let standing: Vec<String> = game
        .players
        .iter()
        .zip(&scores)
        .enumerate()
        .map(|(seat, (p, points))| format!("{} {points} VP in {} turns", side(seat), p.turns))
        .collect();
    let why = match why {
        Why::ProvincesGone => "no province left",
        Why::ThreePilesEmpty => "three piles empty",
        Why::TurnCap => "the turn cap",
    };
    Some(Ending {
        result,
        side: side(bot),
        score: scores
            .iter()
            .enumerate()
            .map(|(seat, &points)| (side(seat), points))
            .collect(),
        score_counts: "victory points",
        position: format!("{why}: {}", standing.join(", ")),
    })
}
