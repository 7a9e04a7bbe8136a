//! Steered opponent moves for 7×7 scenarios (`opponent: extra-turn` and the
//! other words of [`Aim`]). The bot chooses its own moves, so a scenario on
//! the real board cannot script a position; instead protocheck's side picks,
//! in the tracked state, a move with the wanted property. When no such move
//! exists it plays, deterministically, the move that best prepares one, so a
//! scenario that repeats the word reaches the situation in most games.

use super::rules::{Move, MoveOutcome, Pit, Position, Side};

/// What a steered opponent move aims for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// The last seed lands in the opponent's own store (the game goes on),
    /// choosing the move that keeps the longest chain of extra turns.
    ExtraTurn,
    /// A capture; one that takes the bot's last seeds first, then the
    /// biggest.
    Capture,
    /// A sowing of at least 2n+1 seeds: a full lap that skips the bot's
    /// store and gives the origin hole a seed; the most seeds first.
    Lap,
    /// The turn passes to the bot: no extra turn, the game goes on.
    Pass,
    /// The opponent empties its own row, ending the game: preferably with
    /// its last seed in its store (the earned extra turn is not played).
    EmptyRow,
}

impl Aim {
    /// The scenario words, as `opponent:` accepts them.
    pub const WORDS: &'static [&'static str] =
        &["extra-turn", "capture", "lap", "pass", "empty-row"];

    pub fn parse(word: &str) -> Option<Aim> {
        Some(match word {
            "extra-turn" => Aim::ExtraTurn,
            "capture" => Aim::Capture,
            "lap" => Aim::Lap,
            "pass" => Aim::Pass,
            "empty-row" => Aim::EmptyRow,
            _ => return None,
        })
    }

    /// How much a move achieves the aim right now (0: not at all; higher is
    /// better).
    fn score(self, position: &Position, outcome: &MoveOutcome, after: &Position) -> u32 {
        let me = position.to_move();
        let holes = position.board().holes() as u32;
        // Sowing never feeds the bot's store, so it grows only when the end
        // sweeps the bot's own seeds: the mover's row emptied, not the bot's.
        let bot_swept = after.board().store(me.opposite()) > position.board().store(me.opposite());
        match self {
            Aim::ExtraTurn if outcome.extra_turn && !outcome.game_over => {
                1 + extra_turn_chain(after, CHAIN_DEPTH)
            }
            Aim::Capture if outcome.captured > 0 => {
                // Taking the bot's last seeds ends the game with a capture:
                // the rarest ending, so it comes first.
                let ends_on_capture = outcome.game_over && !bot_swept;
                outcome.captured + if ends_on_capture { 1000 } else { 0 }
            }
            Aim::Lap if outcome.sown > 2 * holes && !outcome.game_over => outcome.sown,
            Aim::Pass if !outcome.extra_turn && !outcome.game_over => 1,
            Aim::EmptyRow if outcome.game_over && bot_swept => {
                if outcome.last_pit == Some(Pit::Store(me)) {
                    2
                } else {
                    1
                }
            }
            _ => 0,
        }
    }

    /// When no move achieves the aim: how well a move prepares it (higher is
    /// better), judged as if the opponent moved again from the result.
    fn preparation(self, after: &Position, me: Side) -> u32 {
        let board = after.board();
        let n = board.holes();
        match self {
            Aim::ExtraTurn => match moving_again(after, me) {
                // The longest chain it could start next, then how many starts.
                Some(again) => {
                    let starts = count_achieving(&again, Aim::ExtraTurn);
                    extra_turn_chain(&again, CHAIN_DEPTH) * 16 + starts
                }
                None => 0,
            },
            Aim::Capture => {
                let Some(again) = moving_again(after, me) else {
                    return 0;
                };
                count_achieving(&again, Aim::Capture)
            }
            // Grow the fullest hole towards a lap.
            Aim::Lap => (1..=n).map(|h| board.seeds_in(me, h)).max().unwrap_or(0),
            // Pass has a move whenever the game goes on; an empty row needs
            // few seeds left in it.
            Aim::Pass => 0,
            Aim::EmptyRow => u32::MAX - board.row_sum(me),
        }
    }
}

/// How deep the extra-turn chain is searched (a handful of moves).
const CHAIN_DEPTH: u32 = 4;

/// How many moves of the side to move in `position` achieve `aim`.
fn count_achieving(position: &Position, aim: Aim) -> u32 {
    hole_moves(position)
        .filter(|&(m, _)| {
            let mut next = *position;
            let o = next.play(m).expect("legal");
            aim.score(position, &o, &next) > 0
        })
        .count() as u32
}

/// The longest run of further extra turns the side to move can make.
fn extra_turn_chain(position: &Position, depth: u32) -> u32 {
    if depth == 0 || position.is_over() {
        return 0;
    }
    hole_moves(position)
        .filter_map(|(m, _)| {
            let mut after = *position;
            let o = after.play(m).expect("legal");
            (o.extra_turn && !o.game_over).then(|| 1 + extra_turn_chain(&after, depth - 1))
        })
        .max()
        .unwrap_or(0)
}

/// The legal hole moves (never SWAP), lowest hole first, with their hole.
fn hole_moves(position: &Position) -> impl Iterator<Item = (Move, u8)> + '_ {
    position.legal_moves().filter_map(|m| match m {
        Move::Hole(h) => Some((m, h)),
        Move::Swap => None,
    })
}

/// `after` with `me` to move again (swap window and opening exception
/// closed), or `None` if the game is over.
fn moving_again(after: &Position, me: Side) -> Option<Position> {
    if after.is_over() {
        return None;
    }
    Position::from_parts(*after.board(), me, after.plies().max(2), after.swapped()).ok()
}

/// The steered move for the side to move in `position` (which must not be
/// over): the move that best achieves `aim`, else the one that best prepares
/// it, else the lowest hole that does not end the game. Ties go to the lowest
/// hole, so the choice is a function of the position alone.
pub fn choose(position: &Position, aim: Aim) -> Move {
    let me = position.to_move();
    let rated: Vec<(Move, u8, u32, u32, bool)> = hole_moves(position)
        .map(|(m, h)| {
            let mut after = *position;
            let o = after.play(m).expect("legal");
            let score = aim.score(position, &o, &after);
            let prep = if score == 0 {
                aim.preparation(&after, me)
            } else {
                0
            };
            (m, h, score, prep, o.game_over)
        })
        .collect();
    rated
        .iter()
        .max_by_key(|&&(_, h, score, prep, over)| {
            // Achieving first, then (the game going on) preparing; an
            // ending move is only taken when it is the aim.
            (score, !over, prep, std::cmp::Reverse(h))
        })
        .map(|&(m, ..)| m)
        .expect("a side to move always has a non-empty hole")
}

#[cfg(test)]
mod tests;
