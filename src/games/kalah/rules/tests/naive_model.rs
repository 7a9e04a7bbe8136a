//! Property tests against a naive model of the rules, written from the
//! digest alone, and a check that the model agreement covers every rule.

use super::*;

/// A deliberately simple model: rows as vectors, the next pit found by cases,
/// seeds dropped one at a time. Shares nothing with the engine but the rules.
#[derive(Clone, Debug)]
struct Naive {
    n: usize,
    rows: [Vec<u32>; 2], // [North, South], index hole-1
    stores: [u32; 2],
    to_move: usize, // 0 = North, 1 = South
    plies: u32,
    over: bool,
    /// Which rows were empty when the game ended, before the sweep.
    empty_before_sweep: [bool; 2],
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum NPit {
    Hole(usize, usize), // side, 1-based hole
    Store(usize),
}

impl Naive {
    fn new(n: usize, s: u32) -> Naive {
        Naive {
            n,
            rows: [vec![s; n], vec![s; n]],
            stores: [0, 0],
            to_move: 1,
            plies: 0,
            over: false,
            empty_before_sweep: [false; 2],
        }
    }

    fn wire(&self) -> Vec<u32> {
        let mut v = self.rows[0].clone();
        v.push(self.stores[0]);
        v.extend(&self.rows[1]);
        v.push(self.stores[1]);
        v
    }

    /// Returns (extra turn earned, captured, game over).
    fn play(&mut self, mv: Move) -> (bool, u32, bool) {
        let me = self.to_move;
        let hole = match mv {
            Move::Swap => {
                self.plies += 1;
                return (false, 0, false);
            }
            Move::Hole(k) => usize::from(k),
        };
        let mut hand = std::mem::take(&mut self.rows[me][hole - 1]);
        let mut pit = NPit::Hole(me, hole);
        while hand > 0 {
            pit = match pit {
                NPit::Hole(side, i) if i < self.n => NPit::Hole(side, i + 1),
                NPit::Hole(side, _) if side == me => NPit::Store(me),
                NPit::Hole(_, _) => NPit::Hole(me, 1),
                NPit::Store(_) => NPit::Hole(1 - me, 1),
            };
            match pit {
                NPit::Hole(side, i) => self.rows[side][i - 1] += 1,
                NPit::Store(side) => self.stores[side] += 1,
            }
            hand -= 1;
        }
        let mut captured = 0;
        if let NPit::Hole(side, i) = pit
            && side == me
            && self.rows[me][i - 1] == 1
            && self.rows[1 - me][self.n - i] > 0
        {
            captured = self.rows[1 - me][self.n - i] + 1;
            self.rows[1 - me][self.n - i] = 0;
            self.rows[me][i - 1] = 0;
            self.stores[me] += captured;
        }
        let extra = pit == NPit::Store(me) && self.plies > 0;
        self.plies += 1;
        if !extra {
            self.to_move = 1 - me;
        }
        if self.rows.iter().any(|r| r.iter().all(|&c| c == 0)) {
            self.empty_before_sweep = self.rows.clone().map(|r| r.iter().all(|&c| c == 0));
            for side in 0..2 {
                self.stores[side] += self.rows[side].iter().sum::<u32>();
                self.rows[side].fill(0);
            }
            self.over = true;
        }
        (extra, captured, self.over)
    }
}

/// An upper bound on the length of any game: a move that sends seeds to the
/// other row passes the mover's store and adds to it (at most `total` such
/// moves), and between two of those, every move strictly raises the sum of
/// (hole index × seeds) on the mover's row (at most `n·total` per side).
fn ply_bound(n: usize, total: u32) -> u64 {
    let t = u64::from(total);
    (t + 1) * (2 * n as u64 * t + 1) + 1
}

fn candidates(n: usize) -> impl Iterator<Item = Move> {
    (0..=n as u8 + 1)
        .map(Move::Hole)
        .chain([Move::Swap, Move::Hole(u8::MAX)])
}

fn sizes() -> impl Strategy<Value = (usize, u32)> {
    prop_oneof![
        4 => (1usize..=12, 1u32..=8),
        1 => Just((7, 7)),
        1 => Just((6, 4)),
        1 => (13usize..=MAX_HOLES, 1u32..=3),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_games_match_the_naive_model((n, s) in sizes(), choices in prop::collection::vec(any::<u16>(), 0..300)) {
        let mut pos = Position::new(n, s);
        let mut naive = Naive::new(n, s);
        let total = 2 * n as u32 * s;
        let mut choices = choices.into_iter();
        let mut plies = 0u64;
        while !pos.is_over() {
            // legal_moves agrees with check().
            let legal: Vec<Move> = pos.legal_moves().collect();
            let by_check: Vec<Move> = candidates(n).filter(|&m| pos.check(m).is_ok()).collect();
            prop_assert_eq!(&legal, &by_check);
            prop_assert!(!legal.is_empty(), "no pass: a side to move always has a move");
            prop_assert_eq!(legal.contains(&Move::Swap), pos.plies() == 1);

            let mv = legal[choices.next().map_or(0, usize::from) % legal.len()];
            let mover = pos.to_move();
            let out = pos.play(mv).unwrap();
            if mv == Move::Swap {
                prop_assert_eq!(pos.to_move(), North);
            }
            let (extra, captured, over) = naive.play(mv);
            prop_assert_eq!(pos.board().counts(), &naive.wire()[..], "after {:?} by {:?}", mv, mover);
            prop_assert_eq!((out.extra_turn, out.captured, out.game_over), (extra, captured, over));
            prop_assert_eq!(pos.to_move(), if naive.to_move == 0 { North } else { South });
            prop_assert_eq!(pos.board().total(), total, "seeds conserved");
            prop_assert_eq!(pos.plies(), naive.plies);
            plies += 1;
            prop_assert!(plies <= ply_bound(n, total), "game did not terminate");
        }
        for side in [North, South] {
            prop_assert!(pos.board().row_is_empty(side));
        }
        prop_assert_eq!(pos.board().store(North) + pos.board().store(South), total);
        prop_assert!(pos.legal_moves().is_empty());
        for m in candidates(n) {
            prop_assert_eq!(pos.check(m), Err(Illegal::GameOver));
        }
    }

    #[test]
    fn illegal_moves_never_change_a_position((n, s) in sizes(), choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let mut pos = Position::new(n, s);
        for c in choices {
            for m in candidates(n) {
                let before = pos;
                if pos.play(m).is_err() {
                    prop_assert_eq!(pos, before);
                } else {
                    pos = before;
                }
            }
            let legal: Vec<Move> = pos.legal_moves().collect();
            if legal.is_empty() {
                break;
            }
            pos.play(legal[usize::from(c) % legal.len()]).unwrap();
        }
    }
}

/// Guards the property tests against being vacuous: deterministic random
/// games, checked against the naive model, must exercise every rule.
#[test]
fn naive_model_agreement_covers_every_rule() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut captures, mut laps, mut lap_captures, mut extra, mut swaps) = (0, 0, 0, 0, 0);
    let (mut end_own_row, mut end_their_row, mut end_on_extra) = (0, 0, 0);
    for game in 0..3000 {
        let (n, s) = [(7, 7), (6, 4), (1, 3), (2, 5), (10, 3), (4, 9)][game % 6];
        let mut pos = Position::new(n, s);
        let mut naive = Naive::new(n, s);
        while !pos.is_over() {
            let legal: Vec<Move> = pos.legal_moves().collect();
            let mv = legal[(next() % legal.len() as u64) as usize];
            let mover = pos.to_move();
            let out = pos.play(mv).unwrap();
            assert_eq!(
                (out.extra_turn, out.captured, out.game_over),
                naive.play(mv)
            );
            assert_eq!(pos.board().counts(), &naive.wire()[..]);
            swaps += usize::from(mv == Move::Swap);
            captures += usize::from(out.captured > 0);
            extra += usize::from(out.extra_turn);
            let lap = 2 * n as u32 + 1;
            laps += usize::from(out.sown >= lap);
            lap_captures += usize::from(out.sown == lap && out.captured > 0);
            if out.game_over {
                // Which row emptied, read from the naive model before its sweep.
                let me = usize::from(mover == South);
                if out.extra_turn {
                    end_on_extra += 1;
                } else if naive.empty_before_sweep[1 - me] && out.captured > 0 {
                    end_their_row += 1;
                } else if naive.empty_before_sweep[me] {
                    end_own_row += 1;
                }
            }
        }
    }
    for (what, count) in [
        ("captures", captures),
        ("laps", laps),
        ("15-seed lap captures", lap_captures),
        ("extra turns", extra),
        ("swaps", swaps),
        ("ends by emptying the mover's row", end_own_row),
        ("ends by capturing the opponent's last seeds", end_their_row),
        ("ends on an earned extra turn", end_on_extra),
    ] {
        assert!(count > 0, "no {what} in 3000 random games");
    }
}
