//! A Dominion table in a match (`protocheck match`, docs/match.md): which
//! seats other real bots take (their plays reach this seat's session
//! relayed from their own sessions), and how the game ended for this
//! session's bot. Shared by both protocols; each names its seats `seat N`.

use super::ending::Ending as Why;
use super::engine::DominionTable;
use crate::games::{EndResult, Ending};

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
