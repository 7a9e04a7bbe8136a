//! A move played: sowing, the extra turn in one's own store, captures, the
//! pie-rule swap and the end of the game (§2 of the Kalah digest).

use super::*;

/// The pit at wire index `i` of a board with `n` holes per side.
pub(super) fn pit_at(n: usize, i: usize) -> Pit {
    let (side, j) = if i <= n {
        (Side::North, i)
    } else {
        (Side::South, i - n - 1)
    };
    if j == n {
        Pit::Store(side)
    } else {
        Pit::Hole(side, (j + 1) as u8)
    }
}

impl Position {
    /// Plays `mv` for the side to move. On `Err` the position is unchanged.
    ///
    /// SWAP leaves the board as it is and gives the move to North, who is now
    /// the original starter; which player that is, is the caller's business.
    pub fn play(&mut self, mv: Move) -> Result<MoveOutcome, Illegal> {
        self.check(mv)?;
        let h = match mv {
            Move::Swap => {
                debug_assert_eq!(self.to_move, Side::North);
                self.plies += 1;
                self.swapped = true;
                self.to_move = Side::North;
                return Ok(MoveOutcome {
                    extra_turn: false,
                    captured: 0,
                    game_over: false,
                    last_pit: None,
                    sown: 0,
                });
            }
            Move::Hole(h) => usize::from(h),
        };
        let n = self.board.holes();
        let me = self.to_move;
        let my_base = base(n, me);
        let my_store = my_base + n;
        let their_store = base(n, me.opposite()) + n;
        let pits = &mut self.board.pits;
        let ring = 2 * (n + 1);

        // §3.3 Sowing. A lap is the 2n+1 pits from h+1 round to h itself:
        // every hole on both sides (the origin included) and the mover's own
        // store; the opponent's store is skipped. Whole laps are added in one
        // go, so a 30-seed move costs no more than a 2-seed one.
        let origin = my_base + h - 1;
        let k = std::mem::take(&mut pits[origin]);
        let lap = 2 * n as u32 + 1;
        let (laps, rest) = (k / lap, k % lap);
        if laps > 0 {
            for (i, c) in pits[..ring].iter_mut().enumerate() {
                if i != their_store {
                    *c += laps;
                }
            }
        }
        // The last seed of a whole lap lands in the origin; otherwise the
        // remaining seeds continue from the pit after the origin. Wire order
        // is already the sowing order (North n, North store, South 1, …).
        let mut last = origin;
        for _ in 0..rest {
            last = (last + 1) % ring;
            if last == their_store {
                last = (last + 1) % ring;
            }
            pits[last] += 1;
        }

        // §3.5 Capture: last seed in an own hole that now holds exactly one
        // (lap seeds count: a hole that got a lap seed and then the last one
        // holds 2), and the opposite hole (i opposite n+1-i) is non-empty.
        let mut captured = 0;
        let last_is_own_hole = (my_base..my_store).contains(&last);
        if last_is_own_hole && pits[last] == 1 {
            let i = last - my_base + 1;
            let opposite = base(n, me.opposite()) + (n + 1 - i) - 1;
            if pits[opposite] > 0 {
                captured = pits[opposite] + 1;
                pits[opposite] = 0;
                pits[last] = 0;
                pits[my_store] += captured;
            }
        }

        // §3.4 Extra turn, except for the opening move of the match.
        let extra_turn = last == my_store && self.plies > 0;
        self.to_move = if extra_turn { me } else { me.opposite() };
        self.plies += 1;

        // §3.6 End: after every move, if either row is empty the game is over
        // at once, whoever's row it is and whatever the mover earned, and each
        // side sweeps its own seeds into its own store.
        let game_over =
            self.board.row_is_empty(Side::North) || self.board.row_is_empty(Side::South);
        if game_over {
            for side in [Side::North, Side::South] {
                let b = base(n, side);
                let swept: u32 = self.board.pits[b..b + n].iter().sum();
                self.board.pits[b..b + n].fill(0);
                self.board.pits[b + n] += swept;
            }
            self.over = true;
        }

        Ok(MoveOutcome {
            extra_turn,
            captured,
            game_over,
            last_pit: Some(pit_at(n, last)),
            sown: k,
        })
    }
}
