//! Tests of the rule engine: every rule and every worked example of
//! `shared/rules/kalah.md` §3, then property tests against a deliberately
//! naive pit-by-pit model.

use super::*;
use proptest::prelude::*;

use Side::{North, South};

mod naive_model;

fn h(hole: u8) -> Move {
    Move::Hole(hole)
}

fn counts(s: &str) -> Vec<u32> {
    s.split(',').map(|x| x.parse().unwrap()).collect()
}

fn board(n: usize, s: &str) -> Board {
    Board::from_counts(n, &counts(s)).expect("valid test board")
}

/// A mid-game Kalah(7,7) position; `plies` only matters for the opening
/// exception and the swap window, so tests pass a value past both.
fn at(state: &str, to_move: Side) -> Position {
    Position::from_parts(board(7, state), to_move, 10, false).unwrap()
}

/// Plays `(mover, move, expected state)` steps from `pos`, checking the
/// mover and the state after each step.
fn play_line(pos: &mut Position, steps: &[(Side, Move, &str)]) -> Vec<MoveOutcome> {
    steps
        .iter()
        .map(|&(side, mv, want)| {
            assert_eq!(pos.to_move(), side, "mover before {mv:?}");
            let out = pos.play(mv).unwrap_or_else(|e| panic!("{mv:?}: {e:?}"));
            assert_eq!(
                pos.board().state_string(),
                want,
                "state after {side:?} {mv:?}"
            );
            out
        })
        .collect()
}

// ---- §3.1 board and start -------------------------------------------------

#[test]
fn start_position() {
    let p = Position::new(7, 7);
    assert_eq!(p.board().state_string(), "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0");
    assert_eq!(p.board().total(), 98);
    assert_eq!(
        (p.to_move(), p.plies(), p.is_over(), p.swapped()),
        (South, 0, false, false)
    );
    assert_eq!(p.winner(), None);
    assert_eq!(format!("{:?}", p.board()), p.board().state_string());

    let p = Position::new(6, 4);
    assert_eq!(p.board().total(), 48);
    assert_eq!(p.board().counts().len(), 14);
    let p = Position::new(32, 3);
    assert_eq!((p.board().counts().len(), p.board().total()), (66, 192));
    let p = Position::new(1, 5);
    assert_eq!(p.board().state_string(), "5,0,5,0");
}

#[test]
fn zero_seeds_is_over_from_the_start() {
    let p = Position::new(3, 0);
    assert!(p.is_over());
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.winner(), None);
}

#[test]
#[should_panic(expected = "not supported")]
fn new_rejects_zero_holes() {
    Board::new(0, 7);
}

#[test]
#[should_panic(expected = "not supported")]
fn new_rejects_too_many_holes() {
    Board::new(MAX_HOLES + 1, 7);
}

#[test]
fn check_size_limits() {
    assert!(Board::check_size(1, 1).is_ok());
    assert!(Board::check_size(32, 1_000_000).is_ok());
    assert!(Board::check_size(33, 1).is_err());
    assert!(Board::check_size(0, 1).is_err());
    assert!(Board::check_size(32, u32::MAX / 64 + 1).is_err());
    assert_eq!(
        Board::check_size(33, 1).unwrap_err().to_string(),
        "33 holes per side is not supported (1..=32)"
    );
}

#[test]
fn from_counts_wire_order_and_validation() {
    let b = board(7, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16");
    assert_eq!(b.seeds_in(North, 1), 1);
    assert_eq!(b.seeds_in(North, 7), 7);
    assert_eq!(b.store(North), 8);
    assert_eq!(b.seeds_in(South, 1), 9);
    assert_eq!(b.seeds_in(South, 7), 15);
    assert_eq!(b.store(South), 16);
    assert_eq!(b.total(), 136);
    assert_eq!(b.row_sum(South), 84);
    assert_eq!(Board::from_counts(7, &[0; 15]), None);
    assert_eq!(Board::from_counts(7, &[0; 17]), None);
    assert_eq!(Board::from_counts(0, &[0; 2]), None);
    assert_eq!(Board::from_counts(33, &[0; 68]), None);
    assert_eq!(
        Board::from_counts(1, &[u32::MAX, 1, 0, 0]),
        None,
        "total overflows"
    );
    assert_eq!(
        Board::from_counts(7, &counts("7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0")),
        Some(Board::new(7, 7))
    );
}

#[test]
fn hole_i_is_opposite_hole_n_plus_1_minus_i() {
    // S1 (1 seed) sows into S2, which is empty; opposite is N6 (n+1-2).
    let mut p = at("1,0,0,0,0,5,0,0,1,0,0,0,0,0,1,0", South);
    let out = p.play(h(1)).unwrap();
    assert_eq!(out.captured, 6);
    assert_eq!(p.board().state_string(), "1,0,0,0,0,0,0,0,0,0,0,0,0,0,1,6");
    assert_eq!(out.last_pit, Some(Pit::Hole(South, 2)));
}

// ---- §3.2 legal moves -----------------------------------------------------

#[test]
fn legal_moves_holes_ascending_then_swap() {
    let mut p = Position::new(7, 7);
    assert_eq!(
        p.legal_moves().collect::<Vec<_>>(),
        (1..=7).map(h).collect::<Vec<_>>()
    );
    p.play(h(3)).unwrap();
    let moves: Vec<_> = p.legal_moves().collect();
    assert_eq!(moves.len(), 8);
    assert_eq!(*moves.last().unwrap(), Move::Swap);
    assert_eq!(p.legal_moves().len(), 8);
    assert!(p.legal_moves().contains(Move::Swap));
    let p = at("0,3,0,0,0,0,1,0,0,0,2,0,0,0,0,0", North);
    assert_eq!(p.legal_moves().collect::<Vec<_>>(), vec![h(2), h(7)]);
    assert!(!p.legal_moves().contains(h(0)) && !p.legal_moves().contains(h(200)));
}

#[test]
fn thirty_two_holes_and_swap_do_not_collide() {
    let mut p = Position::new(32, 1);
    assert!(p.legal_moves().contains(h(32)));
    p.play(h(1)).unwrap();
    let moves: Vec<_> = p.legal_moves().collect();
    assert_eq!(moves.len(), 33);
    assert_eq!(moves[31], h(32));
    assert_eq!(moves[32], Move::Swap);
}

#[test]
fn illegal_moves_leave_the_position_unchanged() {
    let mut p = at("0,3,0,0,0,0,1,0,0,0,2,0,0,0,0,0", North);
    let before = p;
    assert_eq!(p.play(h(0)), Err(Illegal::HoleOutOfRange));
    assert_eq!(p.play(h(8)), Err(Illegal::HoleOutOfRange));
    assert_eq!(p.play(h(255)), Err(Illegal::HoleOutOfRange));
    assert_eq!(p.play(h(1)), Err(Illegal::EmptyHole));
    assert_eq!(p.play(Move::Swap), Err(Illegal::SwapNotAllowed));
    assert_eq!(p, before);
}

#[test]
fn empty_hole_is_judged_on_the_movers_own_side() {
    // North's hole 1 is empty while South's hole 1 is not, and vice versa.
    let p = at("0,1,1,1,1,1,1,0,5,0,1,1,1,1,1,0", North);
    assert_eq!(p.check(h(1)), Err(Illegal::EmptyHole));
    assert_eq!(p.check(h(2)), Ok(()));
    let p = at("0,1,1,1,1,1,1,0,5,0,1,1,1,1,1,0", South);
    assert_eq!(p.check(h(1)), Ok(()));
    assert_eq!(p.check(h(2)), Err(Illegal::EmptyHole));
}

// ---- §3.9 worked examples ---------------------------------------------------

#[test]
fn the_seven_openings() {
    let want = [
        "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1",
        "8,7,7,7,7,7,7,0,7,0,8,8,8,8,8,1",
        "8,8,7,7,7,7,7,0,7,7,0,8,8,8,8,1",
        "8,8,8,7,7,7,7,0,7,7,7,0,8,8,8,1",
        "8,8,8,8,7,7,7,0,7,7,7,7,0,8,8,1",
        "8,8,8,8,8,7,7,0,7,7,7,7,7,0,8,1",
        "8,8,8,8,8,8,7,0,7,7,7,7,7,7,0,1",
    ];
    for (k, want) in (1..=7).zip(want) {
        let mut p = Position::new(7, 7);
        let out = p.play(h(k)).unwrap();
        assert_eq!(p.board().state_string(), want, "opening {k}");
        assert_eq!(p.to_move(), North, "North moves next after opening {k}");
        assert!(!out.extra_turn && !out.game_over && out.captured == 0);
        assert_eq!(p.board().seeds_in(North, 7), 7, "no opening reaches N7");
        assert!(p.swap_allowed());
    }
}

#[test]
fn opening_into_the_store_earns_no_extra_turn() {
    let mut p = Position::new(7, 7);
    let out = p.play(h(1)).unwrap();
    assert_eq!(out.last_pit, Some(Pit::Store(South)));
    assert!(!out.extra_turn);
    assert_eq!(p.to_move(), North);
    assert_ne!(p.board().state_string(), "8,8,8,8,8,8,8,0,0,8,8,8,8,8,8,1");
}

#[test]
fn swap_example_from_g2() {
    let mut p = Position::new(7, 7);
    play_line(&mut p, &[(South, h(1), "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1")]);
    let before = *p.board();
    let out = p.play(Move::Swap).unwrap();
    assert_eq!(
        out,
        MoveOutcome {
            extra_turn: false,
            captured: 0,
            game_over: false,
            last_pit: None,
            sown: 0
        }
    );
    assert_eq!(*p.board(), before, "a swap does not change the board");
    assert_eq!((p.to_move(), p.plies(), p.swapped()), (North, 2, true));
    // The original starter, now North, plays MOVE;1 into North's store: the
    // normal extra-turn rule applies right after a swap.
    let outs = play_line(&mut p, &[(North, h(1), "0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1")]);
    assert!(outs[0].extra_turn);
    assert_eq!(p.to_move(), North);
}

#[test]
fn swap_only_as_norths_first_message() {
    let p = Position::new(7, 7);
    assert!(!p.swap_allowed(), "not South's opening");
    assert_eq!(p.check(Move::Swap), Err(Illegal::SwapNotAllowed));

    // North moves normally with an extra turn: no swap on that extra turn.
    let mut p = Position::new(7, 7);
    p.play(h(1)).unwrap();
    assert!(p.swap_allowed());
    assert!(p.play(h(1)).unwrap().extra_turn);
    assert_eq!((p.to_move(), p.plies()), (North, 2));
    assert!(!p.swap_allowed());
    assert_eq!(p.check(Move::Swap), Err(Illegal::SwapNotAllowed));

    // After a swap, nobody may swap again (not the swapped starter).
    let mut p = Position::new(7, 7);
    p.play(h(4)).unwrap();
    p.play(Move::Swap).unwrap();
    assert_eq!(p.check(Move::Swap), Err(Illegal::SwapNotAllowed));
    p.play(h(2)).unwrap();
    assert_eq!(p.check(Move::Swap), Err(Illegal::SwapNotAllowed));
}

#[test]
fn capture_with_non_empty_opposite_hole() {
    let mut p = Position::new(7, 7);
    let outs = play_line(
        &mut p,
        &[
            (South, h(2), "8,7,7,7,7,7,7,0,7,0,8,8,8,8,8,1"),
            (North, h(3), "8,7,0,8,8,8,8,1,8,1,8,8,8,8,8,1"),
            (South, h(4), "9,8,1,9,8,8,8,1,8,1,8,0,9,9,9,2"),
            (North, h(1), "0,9,2,10,9,9,9,2,9,2,8,0,9,9,9,2"),
            (South, h(2), "0,9,2,0,9,9,9,2,9,0,9,0,9,9,9,13"),
        ],
    );
    assert_eq!(
        outs[4].captured, 11,
        "N4's 10 seeds plus the capturing seed"
    );
    assert_eq!(outs[4].last_pit, Some(Pit::Hole(South, 4)));
    assert_eq!(p.to_move(), North, "a capture never gives an extra turn");
}

#[test]
fn last_seed_in_empty_own_hole_with_empty_opposite_does_not_capture() {
    let mut p = Position::new(7, 7);
    let outs = play_line(
        &mut p,
        &[
            (South, h(3), "8,8,7,7,7,7,7,0,7,7,0,8,8,8,8,1"),
            (North, h(4), "8,8,7,0,8,8,8,1,8,8,1,8,8,8,8,1"),
            (South, h(5), "9,9,8,1,9,8,8,1,8,8,1,8,0,9,9,2"),
            (North, h(3), "9,9,0,2,10,9,9,2,9,9,2,8,0,9,9,2"),
            (South, h(3), "9,9,0,2,10,9,9,2,9,9,0,9,1,9,9,2"),
        ],
    );
    assert_eq!(outs[4].captured, 0);
    assert_eq!(outs[4].last_pit, Some(Pit::Hole(South, 5)));
    assert_eq!(p.to_move(), North);
}

#[test]
fn sowing_skips_the_opponents_store() {
    let mut p = Position::new(7, 7);
    play_line(
        &mut p,
        &[
            (South, h(2), "8,7,7,7,7,7,7,0,7,0,8,8,8,8,8,1"),
            (North, h(5), "8,7,7,7,0,8,8,1,8,1,9,9,8,8,8,1"),
            (South, h(7), "9,8,8,8,1,9,9,1,8,1,9,9,8,8,0,2"),
        ],
    );
    let outs = play_line(
        &mut p,
        &[(North, h(7), "10,8,8,8,1,9,0,2,9,2,10,10,9,9,1,2")],
    );
    assert_eq!(outs[0].sown, 9);
    assert_eq!(outs[0].last_pit, Some(Pit::Hole(North, 1)));
    assert_eq!(outs[0].captured, 0, "N1 ends with 10 seeds: no capture");
}

#[test]
fn full_lap_of_15_ends_in_the_origin_and_captures() {
    let mut p = at("0,0,0,0,11,11,1,16,1,15,11,11,10,10,0,1", South);
    let out = p.play(h(2)).unwrap();
    assert_eq!(
        p.board().state_string(),
        "1,1,1,1,12,0,2,16,2,0,12,12,11,11,1,15"
    );
    assert_eq!(out.last_pit, Some(Pit::Hole(South, 2)));
    assert_eq!(out.captured, 13, "N6's 11+1 plus the capturing seed");
    assert_eq!(p.to_move(), North);
}

#[test]
fn two_full_laps_of_30_leave_2_in_the_origin_and_do_not_capture() {
    let mut p = at("0,0,0,2,0,30,2,17,0,0,0,0,1,0,9,37", North);
    let out = p.play(h(6)).unwrap();
    assert_eq!(
        p.board().state_string(),
        "2,2,2,4,2,2,4,19,2,2,2,2,3,2,11,37"
    );
    assert_eq!(out.last_pit, Some(Pit::Hole(North, 6)));
    assert_eq!(out.captured, 0);
    assert_eq!(p.to_move(), South);
}

#[test]
fn lap_seed_plus_last_seed_in_a_hole_that_was_empty_is_not_a_capture() {
    // S1 holds 16 = one lap (15) + 1: S2 was empty, gets a lap seed and the
    // last seed, so it holds 2 and nothing is captured, although N6 is full.
    let mut p = at("1,1,1,1,1,1,1,0,16,0,1,1,1,1,1,0", South);
    let out = p.play(h(1)).unwrap();
    assert_eq!(p.board().state_string(), "2,2,2,2,2,2,2,0,1,2,2,2,2,2,2,1");
    assert_eq!((out.last_pit, out.captured), (Some(Pit::Hole(South, 2)), 0));
}

#[test]
fn end_last_seed_in_store_empties_movers_row_g4() {
    let mut p = at("0,0,0,0,0,0,1,32,0,0,0,0,3,0,0,62", North);
    let out = p.play(h(7)).unwrap();
    assert_eq!(
        p.board().state_string(),
        "0,0,0,0,0,0,0,33,0,0,0,0,0,0,0,65"
    );
    assert!(out.game_over && p.is_over());
    assert!(
        out.extra_turn,
        "earned (it orders the final messages) but never played"
    );
    assert_eq!(p.to_move(), North);
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.check(h(1)), Err(Illegal::GameOver));
    assert_eq!(p.play(Move::Swap), Err(Illegal::GameOver));
    assert_eq!(p.winner(), Some(South));
}

#[test]
fn end_capture_empties_the_opponents_row_g6() {
    let mut p = at("1,0,0,1,0,0,0,62,0,0,1,0,0,0,0,33", North);
    let out = p.play(h(4)).unwrap();
    assert_eq!(
        p.board().state_string(),
        "0,0,0,0,0,0,0,65,0,0,0,0,0,0,0,33"
    );
    assert_eq!((out.captured, out.last_pit), (2, Some(Pit::Hole(North, 5))));
    assert!(out.game_over && !out.extra_turn);
    assert_eq!(p.to_move(), South);
    assert_eq!(p.winner(), Some(North));
}

#[test]
fn end_mover_empties_own_row_while_turn_passes() {
    // South's only seeds: S7 = 2 -> South store, N1. The turn would pass to
    // North, but South's row is empty, so the game ends and North sweeps.
    let mut p = at("3,0,0,0,0,0,4,40,0,0,0,0,0,0,2,49", South);
    let out = p.play(h(7)).unwrap();
    assert_eq!(
        p.board().state_string(),
        "0,0,0,0,0,0,0,48,0,0,0,0,0,0,0,50"
    );
    assert!(out.game_over && !out.extra_turn);
    assert_eq!(out.last_pit, Some(Pit::Hole(North, 1)));
    assert_eq!(p.winner(), Some(South));
}

#[test]
fn end_with_equal_stores_is_a_draw() {
    let mut p = at("0,0,0,0,0,0,1,48,0,0,0,0,0,0,1,48", North);
    p.play(h(7)).unwrap();
    assert!(p.is_over());
    assert_eq!(p.winner(), None);
}

#[test]
fn extra_turn_after_the_opening_for_either_side() {
    // North: its first move (ply 1) into its store is an extra turn.
    let mut p = Position::new(7, 7);
    p.play(h(1)).unwrap();
    assert!(
        p.play(h(1)).unwrap().extra_turn,
        "N1's 7 seeds end in North's store"
    );
    assert_eq!(p.to_move(), North);
    // South at ply 2: one seed from S7 into its store.
    let mut p =
        Position::from_parts(board(7, "8,7,7,7,7,7,7,0,7,0,8,8,8,8,1,1"), South, 2, false).unwrap();
    let out = p.play(h(7)).unwrap();
    assert!(out.extra_turn);
    assert_eq!((p.to_move(), p.plies()), (South, 3));
}

// ---- other sizes ------------------------------------------------------------

#[test]
fn kalah_6_4() {
    let mut p = Position::new(6, 4);
    let outs = play_line(
        &mut p,
        &[
            (South, h(3), "4,4,4,4,4,4,0,4,4,0,5,5,5,1"),
            (North, h(3), "4,4,0,5,5,5,1,4,4,0,5,5,5,1"),
        ],
    );
    assert!(
        !outs[0].extra_turn,
        "the opening exception holds for every size"
    );
    assert!(outs[1].extra_turn);
    assert_eq!(p.to_move(), North);
    assert!(
        !p.swap_allowed(),
        "North's extra turn is not its first message"
    );
}

#[test]
fn kalah_12_lap_of_25_captures_opposite_n8() {
    let start = "1,1,1,1,1,1,1,1,1,1,1,1,0,1,0,0,0,25,0,0,0,0,0,0,0,0";
    let mut p = Position::from_parts(board(12, start), South, 7, false).unwrap();
    let out = p.play(h(5)).unwrap();
    assert_eq!(
        p.board().state_string(),
        "2,2,2,2,2,2,2,0,2,2,2,2,0,2,1,1,1,0,1,1,1,1,1,1,1,4"
    );
    assert_eq!((out.captured, out.last_pit), (3, Some(Pit::Hole(South, 5))));
}

#[test]
fn one_hole() {
    // Lap = 3 pits: own store, the opposite hole, the origin.
    let mut p = Position::new(1, 1);
    let out = p.play(h(1)).unwrap();
    assert_eq!(p.board().state_string(), "0,1,0,1");
    assert!(out.game_over && !out.extra_turn);
    assert_eq!(p.winner(), None);

    let mut p = Position::new(1, 2);
    p.play(h(1)).unwrap();
    assert_eq!(p.board().state_string(), "0,3,0,1", "North sweeps its 3");
    assert!(p.is_over());

    let mut p = Position::new(1, 3);
    let out = p.play(h(1)).unwrap();
    assert_eq!(out.captured, 5, "full lap: origin holds 1, N1 holds 4");
    assert_eq!(p.board().state_string(), "0,0,0,6");
    assert_eq!(p.winner(), Some(South));

    let mut p = Position::new(1, 4);
    p.play(h(1)).unwrap(); // 4 = lap + 1: store, N1, S1, store -> "0+.."
    assert_eq!(p.board().state_string(), "5,0,1,2");
    assert!(p.swap_allowed());
}

// ---- from_parts and drawing -------------------------------------------------

#[test]
fn from_parts_rejects_unreachable_histories() {
    let b = Board::new(7, 7);
    assert!(Position::from_parts(b, North, 0, false).is_err());
    assert!(Position::from_parts(b, South, 1, false).is_err());
    assert!(Position::from_parts(b, North, 1, true).is_err());
    assert!(
        Position::from_parts(board(7, "0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0"), North, 9, false).is_err()
    );
    let p = Position::from_parts(b, North, 1, false).unwrap();
    assert!(p.swap_allowed());
    let end = Position::from_parts(
        board(7, "0,0,0,0,0,0,0,50,0,0,0,0,0,0,0,48"),
        North,
        9,
        false,
    )
    .unwrap();
    assert!(end.is_over());
    assert_eq!(end.winner(), Some(North));
}

#[test]
fn draw_start_kalah_7_7() {
    let want = [
        "           N7  N6  N5  N4  N3  N2  N1",
        "North     [ 7][ 7][ 7][ 7][ 7][ 7][ 7]",
        "N store 0                              0 S store",
        "South     [ 7][ 7][ 7][ 7][ 7][ 7][ 7]",
        "           S1  S2  S3  S4  S5  S6  S7",
    ]
    .join("\n");
    assert_eq!(Board::new(7, 7).draw(), want);
    let mut p = Position::new(7, 7);
    assert_eq!(p.draw(), format!("{want}\nSouth to move (ply 1)"));
    p.play(h(1)).unwrap();
    assert!(p.draw().ends_with("North to move (ply 2)"));
}

#[test]
fn draw_wide_numbers_and_two_digit_holes() {
    let b = board(10, "0,1,2,3,4,5,6,7,8,100,12,0,0,0,0,0,0,0,0,0,0,7");
    let want = [
        "            N10   N9   N8   N7   N6   N5   N4   N3   N2   N1",
        "North      [100][  8][  7][  6][  5][  4][  3][  2][  1][  0]",
        "N store 12                                                    7 S store",
        "South      [  0][  0][  0][  0][  0][  0][  0][  0][  0][  0]",
        "             S1   S2   S3   S4   S5   S6   S7   S8   S9  S10",
    ]
    .join("\n");
    assert_eq!(b.draw(), want);
    assert!(b.draw().lines().all(|l| !l.ends_with(' ')));
}
