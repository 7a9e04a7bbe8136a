//! Property tests: random games keep both pawns connected to their goal
//! rows, undo restores the exact prior board, `check` agrees with `play`, and
//! the move generators agree with `check` on every cell and wall slot.

use super::*;
use proptest::prelude::*;

/// One step of a random game: which colour moves (mostly alternating, but
/// QTP allows the same colour twice) and which legal action it picks.
#[derive(Clone, Debug)]
struct Step {
    same_colour_again: bool,
    pick: u16,
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (prop::bool::weighted(0.15), any::<u16>()).prop_map(|(same_colour_again, pick)| Step {
            same_colour_again,
            pick,
        }),
        0..70,
    )
}

fn sizes() -> impl Strategy<Value = u8> {
    prop_oneof![Just(3u8), Just(5), Just(7), Just(9), Just(11)]
}

/// The generators against a brute-force `check` over every cell (and a ring
/// of cells just off the board) and every wall slot, plus off-range anchors.
fn assert_generators_agree(b: &Board) -> Result<(), TestCaseError> {
    let n = b.size();
    let mut walls = Vec::new();
    for c in Colour::ALL {
        let pawn: Vec<Cell> = b.legal_pawn_moves(c).collect();
        prop_assert!(pawn.len() <= MAX_PAWN_MOVES);
        for row in 0..=n {
            for col in 0..=n {
                let cell = Cell::new(col, row);
                prop_assert_eq!(
                    pawn.contains(&cell),
                    b.check(c, Action::Step(cell)).is_ok(),
                    "{:?} {:?}",
                    c,
                    cell
                );
            }
        }
        b.legal_walls(c, &mut walls);
        for row in 0..=n {
            for col in 0..=n {
                for o in Orientation::ALL {
                    let wall = Wall::new(Cell::new(col, row), o);
                    prop_assert_eq!(
                        walls.contains(&wall),
                        b.check(c, Action::Place(wall)).is_ok(),
                        "{:?} {:?}",
                        c,
                        wall
                    );
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_paths_and_undo_exactly(
        size in sizes(),
        walls in 0u8..12,
        script in steps(),
    ) {
        let mut b = Board::new(size, walls).unwrap();
        let mut colour = Colour::FIRST;
        let mut actions = Vec::new();
        let mut boards = vec![b.clone()];
        for (i, s) in script.iter().enumerate() {
            if !s.same_colour_again || i == 0 {
                colour = if i == 0 { Colour::FIRST } else { colour.opposite() };
            }
            b.legal_actions(colour, &mut actions);
            if actions.is_empty() {
                // Only after a win: a pawn always has a move (§3.4).
                prop_assert!(b.winner().is_some());
                break;
            }
            let a = actions[s.pick as usize % actions.len()];
            let before = b.clone();
            prop_assert_eq!(b.check(colour, a), Ok(()));
            b.play(colour, a).unwrap();
            for c in Colour::ALL {
                prop_assert!(b.shortest_path_len(c).is_some(), "{:?} sealed in\n{}", c, b.draw());
            }
            // Undo restores the exact prior board, then replay.
            let after = b.clone();
            prop_assert!(b.undo());
            prop_assert_eq!(&b, &before);
            b.play(colour, a).unwrap();
            prop_assert_eq!(&b, &after);
            boards.push(b.clone());
            if b.winner().is_some() {
                break;
            }
        }
        assert_generators_agree(&b)?;
        // Undo all the way back, one entry at a time.
        prop_assert_eq!(b.history_len() + 1, boards.len());
        while let Some(expected) = boards.pop() {
            prop_assert_eq!(&b, &expected);
            if !boards.is_empty() {
                prop_assert!(b.undo());
            }
        }
        prop_assert!(!b.undo());
        prop_assert_eq!(b, Board::new(size, walls).unwrap());
    }

    #[test]
    fn check_agrees_with_play(
        size in sizes(),
        walls in 0u8..4,
        script in steps(),
        probes in prop::collection::vec((any::<bool>(), any::<bool>(), 0u8..13, 0u8..13, any::<bool>()), 1..40),
    ) {
        let mut b = Board::new(size, walls).unwrap();
        let mut actions = Vec::new();
        let mut colour = Colour::FIRST;
        for s in &script {
            b.legal_actions(colour, &mut actions);
            if actions.is_empty() || b.winner().is_some() {
                break;
            }
            b.play(colour, actions[s.pick as usize % actions.len()]).unwrap();
            if !s.same_colour_again {
                colour = colour.opposite();
            }
        }
        for (white, is_wall, col, row, vertical) in probes {
            let c = if white { Colour::White } else { Colour::Black };
            let cell = Cell::new(col % (size + 2), row % (size + 2));
            let a = if is_wall {
                let o = if vertical { Orientation::Vertical } else { Orientation::Horizontal };
                Action::Place(Wall::new(cell, o))
            } else {
                Action::Step(cell)
            };
            let before = b.clone();
            let checked = b.check(c, a);
            let played = b.play(c, a);
            prop_assert_eq!(checked, played);
            if played.is_err() {
                prop_assert_eq!(&b, &before);
            } else {
                prop_assert_eq!(b.history_len(), before.history_len() + 1);
                prop_assert!(b.undo());
                prop_assert_eq!(&b, &before);
            }
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn large_boards_stay_consistent(script in prop::collection::vec(any::<u16>(), 0..40)) {
        let mut b = Board::new(25, 38).unwrap();
        let mut actions = Vec::new();
        let mut colour = Colour::FIRST;
        for pick in script {
            b.legal_actions(colour, &mut actions);
            let a = actions[pick as usize % actions.len()];
            b.play(colour, a).unwrap();
            prop_assert!(b.shortest_path_len(Colour::White).is_some());
            prop_assert!(b.shortest_path_len(Colour::Black).is_some());
            colour = colour.opposite();
        }
        assert_generators_agree(&b)?;
    }
}
