//! protocheck's built-in Kalah opponents: random legal, and greedy.

use super::rules::{Move, Position};
use crate::scenario_model::{Strategy, SwapPolicy};

/// Choose the opponent's move in `position` (the opponent is to move).
pub fn choose(
    position: &Position,
    strategy: Strategy,
    swap: SwapPolicy,
    rng: &mut fastrand::Rng,
) -> Move {
    if position.swap_allowed() {
        let take = match swap {
            SwapPolicy::Always => true,
            SwapPolicy::Never => false,
            SwapPolicy::Random => rng.bool(),
        };
        if take {
            return Move::Swap;
        }
    }
    let holes: Vec<Move> = position
        .legal_moves()
        .filter(|m| matches!(m, Move::Hole(_)))
        .collect();
    match strategy {
        Strategy::Random => holes[rng.usize(..holes.len())],
        Strategy::Greedy => *holes
            .iter()
            .max_by_key(|&&m| {
                let me = position.to_move();
                let mut after = *position;
                let outcome = after.play(m).expect("legal");
                let gain = after.board().store(me) as i64 - position.board().store(me) as i64;
                // Prefer extra turns, then store gain; ties go to the lower hole.
                (outcome.extra_turn, gain, std::cmp::Reverse(hole_of(m)))
            })
            .expect("a side to move always has a non-empty hole"),
    }
}

fn hole_of(m: Move) -> u8 {
    match m {
        Move::Hole(h) => h,
        Move::Swap => 0,
    }
}
