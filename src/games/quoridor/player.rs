//! protocheck's built-in Quoridor players: random legal, and a shortest-path
//! runner that sometimes places the wall that hurts the other side most.

use super::rules::{Action, Board, Colour};
use crate::scenario_model::Strategy;

/// Choose a legal action for `colour` (the game is not over).
pub fn choose(
    board: &Board,
    colour: Colour,
    strategy: Strategy,
    rng: &mut fastrand::Rng,
) -> Action {
    let steps: Vec<Action> = board.legal_pawn_moves(colour).map(Action::Step).collect();
    match strategy {
        Strategy::Random => {
            if board.walls_left(colour) > 0 && rng.u8(..4) == 0 {
                let mut walls = Vec::new();
                board.legal_walls(colour, &mut walls);
                if !walls.is_empty() {
                    return Action::Place(walls[rng.usize(..walls.len())]);
                }
            }
            steps[rng.usize(..steps.len())]
        }
        Strategy::Greedy => {
            if board.walls_left(colour) > 0
                && rng.u8(..5) == 0
                && let Some(w) = best_wall(board, colour)
            {
                return w;
            }
            // The step that shortens our own path most.
            *steps
                .iter()
                .min_by_key(|&&a| {
                    let mut b = board.clone();
                    b.play(colour, a).expect("legal");
                    if b.winner() == Some(colour) {
                        0
                    } else {
                        b.shortest_path_len(colour).unwrap_or(u32::MAX)
                    }
                })
                .expect("a pawn always has a legal move")
        }
    }
}

/// The wall that lengthens the opponent's shortest path most (if any does).
fn best_wall(board: &Board, colour: Colour) -> Option<Action> {
    let them = colour.opposite();
    let now = board.shortest_path_len(them)?;
    let mut walls = Vec::new();
    board.legal_walls(colour, &mut walls);
    walls
        .into_iter()
        .map(|w| {
            let mut b = board.clone();
            b.play(colour, Action::Place(w)).expect("legal");
            (b.shortest_path_len(them).unwrap_or(0), w)
        })
        .filter(|(len, _)| *len > now)
        .max_by_key(|(len, _)| *len)
        .map(|(_, w)| Action::Place(w))
}
