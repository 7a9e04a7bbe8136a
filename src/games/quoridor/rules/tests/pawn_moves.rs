//! Pawn moves: steps, jumps and side-steps (§3.4).

use super::*;

#[test]
fn simple_steps_and_reasons() {
    let b = board(9, 10);
    assert_eq!(pawn_set(&b, White), strs(&["D1", "E2", "F1"]));
    assert_eq!(pawn_set(&b, Black), strs(&["D9", "E8", "F9"]));
    illegal(&b, White, "E1", Illegal::StayInPlace);
    illegal(&b, White, "E3", Illegal::NotAdjacent);
    illegal(&b, White, "D2", Illegal::NotAdjacent);
    illegal(&b, White, "A5", Illegal::NotAdjacent);
    illegal(&b, White, "E9", Illegal::Occupied);
    illegal(&b, White, "J1", Illegal::OffBoard);
    illegal(&b, White, "E10", Illegal::OffBoard);
    illegal(&b, White, "Z9", Illegal::OffBoard);
}

#[test]
fn straight_jump() {
    let b = facing();
    assert_eq!(pawn_set(&b, White), strs(&["D4", "E3", "E6", "F4"]));
    assert_eq!(pawn_set(&b, Black), strs(&["D5", "E3", "E6", "F5"]));
    illegal(&b, White, "E5", Illegal::Occupied);
    illegal(&b, White, "D5", Illegal::SideStepNotAllowed);
    illegal(&b, White, "F5", Illegal::SideStepNotAllowed);
    illegal(&b, White, "E7", Illegal::NotAdjacent);
    let mut j = b.clone();
    play(&mut j, White, &["E6"]);
    assert_eq!(j.pawn(White), v("E6"));
}

#[test]
fn wall_behind_allows_side_steps() {
    let mut b = facing();
    play(&mut b, White, &["E6 h"]);
    illegal(&b, White, "E6", Illegal::JumpBlocked);
    legal(&b, White, "D5");
    legal(&b, White, "F5");
    assert_eq!(pawn_set(&b, White), strs(&["D4", "D5", "E3", "F4", "F5"]));
    // A wall beside black: only the other side-step remains.
    play(&mut b, White, &["D6 v"]);
    illegal(&b, White, "D5", Illegal::SideStepBlocked);
    legal(&b, White, "F5");
    assert_eq!(pawn_set(&b, White), strs(&["D4", "E3", "F4", "F5"]));
}

#[test]
fn wall_between_rules_out_jump_and_side_steps() {
    let mut b = facing();
    play(&mut b, Black, &["E5 h"]);
    illegal(&b, White, "E5", Illegal::Occupied);
    illegal(&b, White, "E6", Illegal::JumpBlocked);
    illegal(&b, White, "D5", Illegal::SideStepBlocked);
    illegal(&b, White, "F5", Illegal::SideStepBlocked);
    assert_eq!(pawn_set(&b, White), strs(&["D4", "E3", "F4"]));
    assert_eq!(pawn_set(&b, Black), strs(&["D5", "E6", "F5"]));
}

#[test]
fn wall_between_and_behind() {
    // The §9.2 defect: a side-step through the wall between the pawns.
    let mut b = facing();
    play(&mut b, Black, &["E5 h"]);
    play(&mut b, White, &["D6 h"]);
    illegal(&b, White, "D5", Illegal::SideStepBlocked);
    illegal(&b, White, "F5", Illegal::SideStepBlocked);
    illegal(&b, White, "E6", Illegal::JumpBlocked);
    legal(&b, White, "D4");
    assert_eq!(pawn_set(&b, White), strs(&["D4", "E3", "F4"]));
}

#[test]
fn board_edge_behind_opponent_side_step_wins() {
    let mut b = board(9, 10);
    play(&mut b, White, &["E2", "E3", "E4", "E5", "E6", "E7", "E8"]);
    illegal(&b, White, "E9", Illegal::Occupied);
    illegal(&b, White, "E10", Illegal::OffBoard);
    assert_eq!(pawn_set(&b, White), strs(&["D8", "D9", "E7", "F8", "F9"]));
    play(&mut b, White, &["D9"]);
    assert_eq!(b.winner(), Some(White));
    assert!(b.undo());
    assert_eq!(b.winner(), None);
    play(&mut b, White, &["F9"]);
    assert_eq!(b.winner(), Some(White));
}

#[test]
fn side_edge_behind_opponent() {
    let mut b = board(9, 10);
    play(&mut b, White, &["D1", "C1", "B1", "B2", "B3", "B4", "B5"]);
    play(
        &mut b,
        Black,
        &["D9", "C9", "B9", "A9", "A8", "A7", "A6", "A5"],
    );
    assert_eq!(pawn_set(&b, White), strs(&["A4", "A6", "B4", "B6", "C5"]));
    play(&mut b, White, &["A6 h"]);
    illegal(&b, White, "A6", Illegal::SideStepBlocked);
    legal(&b, White, "A4");
}

#[test]
fn adjacent_in_every_direction_on_small_board() {
    // 3×3: black B3 facing white B2, with B1 free behind white: a jump.
    let mut b = board(3, 0);
    play(&mut b, White, &["B2"]);
    illegal(&b, Black, "B2", Illegal::Occupied);
    assert_eq!(pawn_set(&b, Black), strs(&["A3", "B1", "C3"]));
    illegal(&b, Black, "A2", Illegal::SideStepNotAllowed);
    // White B2 facing black B3 with the board edge behind: side-steps.
    assert_eq!(pawn_set(&b, White), strs(&["A2", "A3", "B1", "C2", "C3"]));
    // Black steps sideways: white B2 sees A3 diagonally, not adjacent.
    play(&mut b, Black, &["A3"]);
    assert_eq!(pawn_set(&b, White), strs(&["A2", "B1", "B3", "C2"]));
    play(&mut b, White, &["B3"]);
    assert_eq!(b.winner(), Some(White));
    illegal(&b, Black, "A2", Illegal::GameOver);
    assert_eq!(b.legal_pawn_moves(Black).count(), 0);
}

#[test]
fn forced_jump_and_forced_side_step() {
    // reference-engine-sessions.jsonl, session forced-moves.
    let mut b = board(5, 2);
    play(&mut b, White, &["B2 v", "C2 v"]);
    play(&mut b, Black, &["C4", "C3", "C2"]);
    assert_eq!(b.walls_left(White), 0);
    assert_eq!(pawn_set(&b, White), strs(&["C3"]));
    for m in ["B2", "D2", "D1", "B1"] {
        assert!(b.check(White, act(m)).is_err(), "{m}");
    }
    let mut b = board(5, 4);
    play(&mut b, White, &["C2"]);
    play(&mut b, Black, &["C4", "C3"]);
    play(&mut b, White, &["B3 v", "C2 v", "B2 h", "C4 h"]);
    assert_eq!(pawn_set(&b, White), strs(&["D3"]));
    let mut walls = Vec::new();
    b.legal_walls(White, &mut walls);
    assert!(walls.is_empty());
}
