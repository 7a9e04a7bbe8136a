//! How a game ended for the session's client (`protocheck match`): the
//! scores by seat, the client's result, the final position in short.

use super::super::dealer::Table;
use super::super::engine::Dealer;
use crate::games::{EndResult, Ending};

/// What the score counts: the reference's ranking (rules digest §3.11).
pub const SCORE_COUNTS: &str = "bag + boards + traits";

/// A player's side in reports: its seat in the first turn's order.
pub fn side(id: u64) -> String {
    format!("seat {}", id + 1)
}

/// The game is over: every player's score (by seat), and the bot's result.
/// The highest score wins; players who share it draw (the reference ranks
/// by score and names no tie-break).
pub fn ending(table: &Table) -> Ending {
    let mut players: Vec<_> = table.dealer.players.iter().collect();
    players.sort_by_key(|p| p.id);
    let scores: Vec<(u64, u32)> = players
        .iter()
        .map(|p| (p.id, Dealer::score_reference(p)))
        .collect();
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let own = scores
        .iter()
        .find(|&&(id, _)| id == table.bot)
        .map(|&(_, s)| s);
    let at_best = scores.iter().filter(|&&(_, s)| s == best).count();
    let result = match own {
        Some(s) if s == best && at_best == 1 => EndResult::Won,
        Some(s) if s == best => EndResult::Drew,
        _ => EndResult::Lost,
    };
    let position = players
        .iter()
        .map(|p| {
            format!(
                "{}: bag {}, {} boards, {} traits",
                side(p.id),
                p.bag,
                p.boards.len(),
                p.boards.iter().map(|s| s.traits.len()).sum::<usize>()
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    Ending {
        result,
        side: side(table.bot),
        score: scores
            .into_iter()
            .map(|(id, s)| (side(id), i32::try_from(s).unwrap_or(i32::MAX)))
            .collect(),
        score_counts: SCORE_COUNTS,
        position: format!("after turn {}: {position}", table.turn),
    }
}
