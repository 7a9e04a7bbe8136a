//! The Kalah situations a run should reach (issue 30), as data: the
//! coverage report counts each one the session reached (`crate::coverage`).

use super::catalogue as rule;
use super::grammar::BotMessage;
use super::rules::{Illegal, Move, MoveOutcome, Position, Side};
use crate::scenario_model::SwapPolicy;
use crate::coverage::{Reached, Situation};
use crate::verdict::RuleId;

pub static BOT_SOUTH: Situation = Situation {
    id: "kalah.side.south",
    what: "the bot played South",
};
pub static BOT_NORTH: Situation = Situation {
    id: "kalah.side.north",
    what: "the bot played North",
};
pub static BOT_SWAPPED: Situation = Situation {
    id: "kalah.swap.bot-swapped",
    what: "the bot swapped (pie rule)",
};
pub static BOT_WAS_SWAPPED: Situation = Situation {
    id: "kalah.swap.was-swapped",
    what: "the opponent swapped the bot's opening",
};
pub static EXTRA_TURN: Situation = Situation {
    id: "kalah.turn.extra",
    what: "the bot earned an extra turn",
};
pub static EXTRA_TURN_CHAIN: Situation = Situation {
    id: "kalah.turn.extra-chain",
    what: "the bot earned two extra turns in a row",
};
pub static CAPTURE: Situation = Situation {
    id: "kalah.capture.any",
    what: "a capture (either side)",
};
pub static CAPTURE_LAST: Situation = Situation {
    id: "kalah.capture.last-seeds",
    what: "a capture that emptied a row (the game ended with it)",
};
pub static PAST_STORE: Situation = Situation {
    id: "kalah.sow.past-store",
    what: "a sowing that went past the mover's store into the other row",
};
pub static ROW_EMPTIED: Situation = Situation {
    id: "kalah.end.row-emptied",
    what: "the game ended with a row emptied",
};

pub static SITUATIONS: &[&Situation] = &[
    &BOT_SOUTH,
    &BOT_NORTH,
    &BOT_SWAPPED,
    &BOT_WAS_SWAPPED,
    &EXTRA_TURN,
    &EXTRA_TURN_CHAIN,
    &CAPTURE,
    &CAPTURE_LAST,
    &PAST_STORE,
    &ROW_EMPTIED,
];

/// What the session keeps to tell situations: the count, and the bot's
/// extra turns in a row so far.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    pub reached: Reached,
    extra_in_a_row: u32,
}

impl Tracker {
    /// The bot plays `side` from now on (its start, or a swap).
    pub fn side(&mut self, side: Side) {
        self.reached.hit(match side {
            Side::South => &BOT_SOUTH,
            Side::North => &BOT_NORTH,
        });
    }

    /// A legal move was played, by the bot or by protocheck's side, on a
    /// board of `holes` holes a side.
    pub fn played(&mut self, mv: Move, outcome: &MoveOutcome, by_bot: bool, holes: usize) {
        if mv == Move::Swap {
            self.reached
                .hit(if by_bot { &BOT_SWAPPED } else { &BOT_WAS_SWAPPED });
            return;
        }
        if by_bot {
            if outcome.extra_turn && !outcome.game_over {
                self.extra_in_a_row += 1;
                self.reached.hit(&EXTRA_TURN);
                if self.extra_in_a_row == 2 {
                    self.reached.hit(&EXTRA_TURN_CHAIN);
                }
            } else {
                self.extra_in_a_row = 0;
            }
        }
        if outcome.captured > 0 {
            self.reached.hit(&CAPTURE);
            if outcome.game_over {
                self.reached.hit(&CAPTURE_LAST);
            }
        }
        if let Move::Hole(h) = mv {
            // From hole h the mover's store is n - h + 1 pits away.
            if outcome.sown as usize > holes - usize::from(h) + 1 {
                self.reached.hit(&PAST_STORE);
            }
        }
        if outcome.game_over {
            self.reached.hit(&ROW_EMPTIED);
        }
    }
}

/// Generated play aiming at what is missing (`coverage::Aims`): the
/// opponent's legal moves in `position`, lowest hole first, each with the
/// situations playing it would reach. A swap is among them only where the
/// game's swap policy leaves it to chance (a generated game named
/// `…-swap`/`…-noswap` keeps its word).
pub fn choices_ahead(position: &Position, swap: SwapPolicy) -> Vec<(Move, Vec<&'static Situation>)> {
    if position.swap_allowed() && swap == SwapPolicy::Always {
        return Vec::new();
    }
    position
        .legal_moves()
        .filter(|m| *m != Move::Swap || swap == SwapPolicy::Random)
        .map(|m| (m, foresee(position, m)))
        .collect()
}

/// The situations the opponent's legal move `mv` in `position` reaches.
/// Every game ends with a row emptied, so that alone is no aim (aiming at
/// it would only end games sooner, before their rarer situations). An
/// opening whose last seed lands in the opener's store (hole 1 on 7×7) is
/// the one a pie-rule player swaps, so as South's opening it aims at the
/// bot's swap.
pub fn foresee(position: &Position, mv: Move) -> Vec<&'static Situation> {
    let mut after = *position;
    let Ok(outcome) = after.play(mv) else {
        return Vec::new();
    };
    let mut t = Tracker::default();
    t.played(mv, &outcome, false, position.board().holes());
    let mut reaches: Vec<&'static Situation> = SITUATIONS
        .iter()
        .copied()
        .filter(|s| t.reached.has(s) && s.id != ROW_EMPTIED.id)
        .collect();
    let opener = position.to_move();
    if position.plies() == 0 && outcome.last_pit == Some(super::rules::Pit::Store(opener)) {
        reaches.push(&BOT_SWAPPED);
    }
    reaches
}

/// The rules a reply the grammar accepted (`msg`) has kept: the line's
/// framing and grammar, the turn it owed (`owed`: it answered an extra turn
/// or a swap notice), and the legality checks `legal` got past.
pub fn checks_held(msg: BotMessage, owed: bool, legal: Result<(), Illegal>) -> Vec<RuleId> {
    let mut held = vec![
        rule::IO_INVALID_UTF8.id,
        rule::FRAMING_EMPTY_LINE.id,
        rule::FRAMING_CRLF.id,
        rule::FRAMING_WHITESPACE.id,
        rule::GRAMMAR_UNKNOWN.id,
    ];
    if let BotMessage::Move { non_canonical, .. } = msg {
        held.push(rule::GRAMMAR_HOLE_NOT_NUMBER.id);
        if !non_canonical {
            held.push(rule::MOVE_NUMBER_FORMAT.id);
        }
    }
    if owed {
        held.push(rule::TURN_MISSED_TURN.id);
    }
    match (msg, legal) {
        (BotMessage::Swap, Ok(())) => held.push(rule::SWAP_NOT_ALLOWED.id),
        (BotMessage::Move { .. }, Ok(())) => {
            held.extend([rule::MOVE_HOLE_RANGE.id, rule::MOVE_EMPTY_HOLE.id])
        }
        (_, Err(Illegal::EmptyHole)) => held.push(rule::MOVE_HOLE_RANGE.id),
        _ => {}
    }
    held
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(t: &Tracker) -> Vec<(&'static str, u64)> {
        t.reached.iter().collect()
    }

    #[test]
    fn the_opponent_aims_at_a_capture_until_the_run_has_one() {
        use super::super::rules::Board;
        use crate::coverage::{Aims, Coverage};
        // North to move: hole 1 lands in a full hole, hole 2 in the empty
        // hole 3, capturing across.
        let board = Board::from_counts(3, &[1, 1, 0, 0, 2, 2, 2, 0]).unwrap();
        let p = Position::from_parts(board, Side::North, 5, false).unwrap();
        let ahead = choices_ahead(&p, SwapPolicy::Never);
        assert_eq!(ahead[0], (Move::Hole(1), vec![]));
        assert_eq!(ahead[1], (Move::Hole(2), vec![&CAPTURE]));
        let own = Reached::new();
        assert_eq!(Aims::default().choose(&own, ahead.clone()), Some(Move::Hole(2)));
        let mut before = Coverage::default();
        before.reached(CAPTURE.id, 1);
        assert_eq!(Aims::after([&before]).choose(&own, ahead), None);
        // A swap policy of `always` keeps the opening's swap.
        let mut o = Position::new(7, 7);
        o.play(Move::Hole(1)).unwrap();
        assert!(o.swap_allowed());
        assert!(choices_ahead(&o, SwapPolicy::Always).is_empty());
        assert!(!choices_ahead(&o, SwapPolicy::Never).iter().any(|(m, _)| *m == Move::Swap));
        let random = choices_ahead(&o, SwapPolicy::Random);
        assert!(random.contains(&(Move::Swap, vec![&BOT_WAS_SWAPPED])));
    }

    #[test]
    fn an_extra_turn_twice_in_a_row_is_a_chain_and_a_long_sowing_passes_the_store() {
        // Kalah(6,1)... use 7 holes, 7 seeds: South's hole 1 holds 7 and
        // reaches its store exactly (an extra turn, not on the first ply).
        let mut p = Position::new(7, 7);
        let mut t = Tracker::default();
        let first = p.play(Move::Hole(1)).unwrap(); // opening: no extra turn
        t.played(Move::Hole(1), &first, true, 7);
        assert!(counts(&t).iter().all(|(id, _)| *id != EXTRA_TURN.id));
        // North plays hole 7 (8 seeds now): past its store into South's row.
        let o = p.play(Move::Hole(7)).unwrap();
        t.played(Move::Hole(7), &o, false, 7);
        assert!(counts(&t).contains(&(PAST_STORE.id, 1)), "{:?}", counts(&t));
        let fake = MoveOutcome {
            extra_turn: true,
            captured: 0,
            game_over: false,
            last_pit: None,
            sown: 1,
        };
        t.played(Move::Hole(7), &fake, true, 7);
        assert!(!counts(&t).iter().any(|(id, _)| *id == EXTRA_TURN_CHAIN.id));
        t.played(Move::Hole(7), &fake, true, 7);
        assert!(counts(&t).contains(&(EXTRA_TURN_CHAIN.id, 1)));
        t.played(Move::Swap, &fake, false, 7);
        assert!(counts(&t).contains(&(BOT_WAS_SWAPPED.id, 1)));
    }
}
