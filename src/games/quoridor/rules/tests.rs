//! Unit tests for the rule engine: every rule and example of
//! `shared/rules/quoridor.md` §3, with the reasons the engine gives.

use super::*;
use crate::games::quoridor::notation::{parse_vertex, parse_wall};
use Colour::{Black, White};

fn v(s: &str) -> Cell {
    parse_vertex(s).unwrap_or_else(|| panic!("bad vertex {s}"))
}

fn w(s: &str) -> Wall {
    parse_wall(s).unwrap_or_else(|| panic!("bad wall {s}"))
}

/// `"E2"` is a pawn move, `"E2 h"` a wall.
fn act(s: &str) -> Action {
    if s.contains(' ') {
        Action::Place(w(s))
    } else {
        Action::Step(v(s))
    }
}

fn board(size: u8, walls: u8) -> Board {
    Board::new(size, walls).unwrap()
}

#[track_caller]
fn play(b: &mut Board, c: Colour, moves: &[&str]) {
    for m in moves {
        if let Err(e) = b.play(c, act(m)) {
            panic!("{c:?} {m} refused: {e}\n{}", b.draw());
        }
    }
}

#[track_caller]
fn legal(b: &Board, c: Colour, m: &str) {
    assert_eq!(
        b.check(c, act(m)),
        Ok(()),
        "{c:?} {m} should be legal\n{}",
        b.draw()
    );
}

#[track_caller]
fn illegal(b: &Board, c: Colour, m: &str, why: Illegal) {
    assert_eq!(b.check(c, act(m)), Err(why), "{c:?} {m}\n{}", b.draw());
}

fn pawn_set(b: &Board, c: Colour) -> Vec<String> {
    let mut s: Vec<String> = b.legal_pawn_moves(c).map(|x| x.to_string()).collect();
    s.sort();
    s
}

fn strs(v: &[&str]) -> Vec<String> {
    let mut s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    s.sort();
    s
}

/// White at E4 and black at E5 on 9×9 (§3.4), by consecutive moves.
fn facing() -> Board {
    let mut b = board(9, 10);
    play(&mut b, White, &["E2", "E3", "E4"]);
    play(&mut b, Black, &["E8", "E7", "E6", "E5"]);
    b
}

// ------------------------------------------------------------ sizes, start

#[test]
fn sizes_odd_3_to_25_only() {
    for n in (3..=25).step_by(2) {
        let b = Board::new(n, 0).unwrap();
        assert_eq!(b.size(), n);
        assert_eq!(b.wall_slots().count(), 2 * (n as usize - 1).pow(2));
    }
    for n in [0, 1, 2, 4, 8, 10, 24, 26, 27, 255] {
        let e = Board::new(n, 10).unwrap_err();
        assert!(e.contains("unacceptable size"), "{n}: {e}");
    }
}

#[test]
fn default_wall_counts() {
    let table = [
        (3, 0),
        (5, 3),
        (7, 6),
        (9, 10),
        (11, 13),
        (13, 17),
        (15, 20),
        (17, 24),
        (19, 27),
        (21, 31),
        (23, 34),
        (25, 38),
    ];
    for (n, walls) in table {
        assert_eq!(default_walls(n), walls, "N={n}");
        let b = Board::with_default_walls(n).unwrap();
        assert_eq!(b.walls_left(Black), walls);
        assert_eq!(b.walls_left(White), walls);
        assert_eq!(b.initial_walls(), walls);
    }
}

#[test]
fn start_cells_and_goals() {
    let cases = [
        (3, "B3", "B1"),
        (5, "C5", "C1"),
        (9, "E9", "E1"),
        (25, "M25", "M1"),
    ];
    for (n, black, white) in cases {
        let b = board(n, 0);
        assert_eq!(b.pawn(Black), v(black));
        assert_eq!(b.pawn(White), v(white));
        assert_eq!(b.winner(), None);
        assert_eq!(b.history_len(), 0);
        assert_eq!(b.placed_walls().count(), 0);
        assert_eq!(goal_row(n, White), n - 1);
        assert_eq!(goal_row(n, Black), 0);
    }
    // Even sizes (never used by protocheck): the eastern middle column.
    assert_eq!(start_cell(8, White), v("E1"));
    assert_eq!(start_cell(8, Black), v("E8"));
}

#[test]
fn colours() {
    assert_eq!(Colour::FIRST, Black);
    assert_eq!(Black.opposite(), White);
    assert_eq!(White.opposite(), Black);
    assert_eq!(Black.as_str(), "black");
    assert_eq!(White.as_str(), "white");
}

// ------------------------------------------------------------ walls

#[test]
fn wall_edge_examples() {
    // `E2 h` stops white at E1 from going to E2, and stops F1→F2.
    let mut b = board(9, 10);
    play(&mut b, White, &["E2 h"]);
    illegal(&b, White, "E2", Illegal::Blocked);
    play(&mut b, White, &["F1"]);
    illegal(&b, White, "F2", Illegal::Blocked);
    // `D2 v` stops E1→D1 but not E1→E2.
    let mut b = board(9, 10);
    play(&mut b, Black, &["D2 v"]);
    illegal(&b, White, "D1", Illegal::Blocked);
    legal(&b, White, "E2");
}

#[test]
fn every_wall_blocks_exactly_its_two_edges() {
    for n in [3u8, 5, 9] {
        let empty = board(n, 1);
        for wall in empty.wall_slots() {
            let mut b = empty.clone();
            b.play(White, Action::Place(wall)).unwrap();
            let (x, r) = (wall.anchor.col, wall.anchor.row);
            let expected: Vec<(Cell, Direction)> = match wall.orientation {
                Orientation::Horizontal => vec![
                    (Cell::new(x, r), Direction::South),
                    (Cell::new(x + 1, r), Direction::South),
                ],
                Orientation::Vertical => vec![
                    (Cell::new(x, r), Direction::East),
                    (Cell::new(x, r - 1), Direction::East),
                ],
            };
            for c in b.cells() {
                for d in Direction::ALL {
                    let blocked = empty.edge_open(c, d) && !b.edge_open(c, d);
                    let mirror = expected.iter().any(|&(ec, ed)| {
                        (ec, ed) == (c, d) || offset(ec, ed) == Some(c) && opposite(ed) == d
                    });
                    assert_eq!(blocked, mirror, "N={n} {wall} {c} {d:?}");
                }
            }
        }
    }
}

fn opposite(d: Direction) -> Direction {
    match d {
        Direction::North => Direction::South,
        Direction::South => Direction::North,
        Direction::East => Direction::West,
        Direction::West => Direction::East,
    }
}

#[test]
fn anchor_range_9x9() {
    let b = board(9, 10);
    for m in [
        "I5 v", "I5 h", "E1 h", "E1 v", "J5 h", "E10 h", "A1 h", "I9 v",
    ] {
        illegal(&b, White, m, Illegal::WallOutOfRange);
    }
    for m in ["A9 h", "H9 v", "H2 h", "A2 v"] {
        legal(&b, White, m);
    }
    let mut b = b;
    play(&mut b, White, &["A9 h", "H9 v", "H2 h", "A2 v"]);
    assert_eq!(b.walls_left(White), 6);
    let mut walls = Vec::new();
    board(9, 10).legal_walls(Black, &mut walls);
    assert_eq!(walls.len(), 128);
    assert_eq!(walls.first(), Some(&w("A2 h")));
    assert_eq!(walls.last(), Some(&w("H9 v")));
}

#[test]
fn anchor_range_25x25() {
    let mut b = board(25, 38);
    play(&mut b, White, &["M2"]);
    play(&mut b, Black, &["M24"]);
    for m in ["A25 h", "X25 v", "X2 h"] {
        legal(&b, White, m);
        play(&mut b, White, &[m]);
    }
    illegal(&b, White, "Y25 v", Illegal::WallOutOfRange);
    illegal(&b, White, "A1 h", Illegal::WallOutOfRange);
    illegal(&b, White, "Z3 h", Illegal::WallOutOfRange);
    let mut walls = Vec::new();
    board(25, 38).legal_walls(White, &mut walls);
    assert_eq!(walls.len(), 2 * 24 * 24);
}

#[test]
fn overlap_cross_and_t_after_horizontal() {
    let mut b = board(9, 10);
    play(&mut b, White, &["C5 h"]);
    illegal(&b, Black, "C5 h", Illegal::WallOverlap);
    illegal(&b, Black, "B5 h", Illegal::WallOverlap);
    illegal(&b, Black, "D5 h", Illegal::WallOverlap);
    illegal(&b, Black, "C5 v", Illegal::WallCrossing);
    // End to end and T-junctions are legal.
    for m in [
        "E5 h", "A5 h", "C6 v", "C4 v", "B5 v", "D5 v", "C6 h", "C4 h",
    ] {
        legal(&b, Black, m);
    }
    play(&mut b, Black, &["E5 h", "C6 v", "C4 v", "B5 v", "D5 v"]);
    assert_eq!(b.walls_left(Black), 5);
    assert_eq!(b.placed_walls().count(), 6);
}

#[test]
fn overlap_cross_and_t_after_vertical() {
    let mut b = board(9, 10);
    play(&mut b, White, &["C5 v"]);
    illegal(&b, Black, "C5 v", Illegal::WallOverlap);
    illegal(&b, Black, "C4 v", Illegal::WallOverlap);
    illegal(&b, Black, "C6 v", Illegal::WallOverlap);
    illegal(&b, Black, "C5 h", Illegal::WallCrossing);
    for m in [
        "C7 v", "C3 v", "B5 h", "D5 h", "B6 h", "B4 h", "D6 h", "B5 v", "D5 v",
    ] {
        legal(&b, Black, m);
    }
    play(&mut b, Black, &["C7 v", "C3 v", "B5 h", "D5 h", "B6 h"]);
    let mut placed: Vec<String> = b.placed_walls().map(|x| x.to_string()).collect();
    placed.sort();
    assert_eq!(
        placed,
        strs(&["B5 h", "B6 h", "C3 v", "C5 v", "C7 v", "D5 h"])
    );
}

#[test]
fn overlap_at_board_edges() {
    // Horizontal walls in the first and last anchor columns, vertical walls
    // in the first and last anchor rows: no wrap-around between rows.
    let mut b = board(5, 10);
    play(&mut b, White, &["D3 h"]);
    legal(&b, White, "A4 h");
    legal(&b, White, "A3 v");
    play(&mut b, White, &["A3 v"]);
    illegal(&b, White, "A2 v", Illegal::WallOverlap);
    illegal(&b, White, "A4 v", Illegal::WallOverlap);
    legal(&b, White, "D2 v");
    legal(&b, White, "B5 v");
}

// ------------------------------------------------------------ pawn moves

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

// ------------------------------------------------------------ path rule

#[test]
fn path_rule_seals_white_and_black() {
    let mut b = board(9, 10);
    play(&mut b, Black, &["B2 h", "D2 h", "F2 h", "H2 h"]);
    illegal(&b, Black, "A2 v", Illegal::PathBlocked(White));
    illegal(&b, White, "A2 v", Illegal::PathBlocked(White));
    let mut b = board(9, 10);
    play(&mut b, White, &["B9 h", "D9 h", "F9 h", "H9 h"]);
    illegal(&b, White, "A9 v", Illegal::PathBlocked(Black));
}

#[test]
fn path_rule_ignores_pawns() {
    let mut b = board(5, 10);
    play(
        &mut b,
        White,
        &["B3 v", "B5 v", "C3 v", "C5 v", "A2 h", "D2 h"],
    );
    play(&mut b, Black, &["C4", "C3"]);
    // Black stands in white's one-cell corridor; pawns do not block.
    assert_eq!(b.shortest_path_len(White), Some(4));
    legal(&b, Black, "A4 h");
    play(&mut b, Black, &["A4 h"]);
    illegal(&b, Black, "C4 h", Illegal::PathBlocked(White));
    // C3 h would cut the corridor too, but it also crosses C3 v.
    illegal(&b, Black, "C3 h", Illegal::WallCrossing);
    let mut walls = Vec::new();
    b.legal_walls(Black, &mut walls);
    assert!(!walls.contains(&w("C4 h")));
    assert!(!walls.contains(&w("C3 h")));
}

#[test]
fn shortest_paths() {
    let mut b = board(9, 10);
    assert_eq!(b.shortest_path_len(White), Some(8));
    assert_eq!(b.shortest_path_len(Black), Some(8));
    play(&mut b, White, &["D2 h", "F2 h"]);
    // E1 must go round: E1 → … → C1 → C2 or G1 → G2, then up.
    assert_eq!(b.shortest_path_len(White), Some(10));
    let mut b = board(9, 10);
    play(&mut b, White, &["E2", "E3", "E4", "E5", "E6", "E7", "E8"]);
    // Black on E9 in front of white changes nothing.
    assert_eq!(b.shortest_path_len(White), Some(1));
    let mut small = board(3, 0);
    play(&mut small, White, &["A1", "A2", "A3"]);
    assert_eq!(small.shortest_path_len(White), Some(0));
}

// ------------------------------------------------------------ supply

#[test]
fn wall_supply() {
    let mut b = board(9, 1);
    play(&mut b, White, &["A5 h"]);
    assert_eq!(b.walls_left(White), 0);
    illegal(&b, White, "C5 h", Illegal::NoWallsLeft);
    let mut walls = Vec::new();
    b.legal_walls(White, &mut walls);
    assert!(walls.is_empty());
    play(&mut b, Black, &["C5 h"]);
    illegal(&b, Black, "E5 h", Illegal::NoWallsLeft);
    assert!(b.undo());
    assert_eq!(b.walls_left(Black), 1);
    legal(&b, Black, "E5 h");
    // Geometry is judged before the supply.
    illegal(&b, White, "A5 h", Illegal::WallOverlap);
    let mut b = board(9, 0);
    illegal(&b, White, "A5 h", Illegal::NoWallsLeft);
    play(&mut b, White, &["E2"]);
}

// ------------------------------------------------------------ winner, undo

#[test]
fn undo_winner_session() {
    // reference-engine-sessions.jsonl, session undo-winner (5×5, walls 3).
    let mut b = board(5, 3);
    assert!(!b.undo());
    assert!(!b.undo_n(1));
    play(&mut b, Black, &["D5"]);
    play(&mut b, White, &["C2", "C3", "C4", "C5"]);
    assert_eq!(b.winner(), Some(White));
    assert_eq!(b.check(Black, act("D4")), Err(Illegal::GameOver));
    assert_eq!(b.check(Black, act("A2 h")), Err(Illegal::GameOver));
    let mut walls = Vec::new();
    b.legal_walls(Black, &mut walls);
    assert!(walls.is_empty());
    assert!(b.undo());
    assert_eq!(b.winner(), None);
    play(&mut b, Black, &["D4", "D3", "D2", "D1"]);
    assert_eq!(b.winner(), Some(Black));
    assert!(b.undo_n(1));
    assert_eq!(b.winner(), None);
    assert_eq!(b.history_len(), 7);
    assert!(b.undo_n(6));
    assert_eq!(b.history_len(), 1);
    let before = b.clone();
    assert!(!b.undo_n(5));
    assert_eq!(b, before);
    assert!(b.undo());
    assert_eq!(b, board(5, 3));
    assert!(b.undo_n(0));
    assert_eq!(b, board(5, 3));
}

#[test]
fn undo_across_walls_restores_everything() {
    let start = board(7, 6);
    let mut b = start.clone();
    let script: &[(Colour, &str)] = &[
        (Black, "D6"),
        (White, "A3 h"),
        (Black, "D5"),
        (White, "D2"),
        (Black, "B5 v"),
        (White, "E4 v"),
        (White, "D3"),
    ];
    let mut snapshots = vec![b.clone()];
    for &(c, m) in script {
        play(&mut b, c, &[m]);
        snapshots.push(b.clone());
    }
    assert_eq!(b.walls_left(White), 4);
    assert_eq!(b.walls_left(Black), 5);
    assert_eq!(b.history_len(), script.len());
    assert_eq!(b.history()[1].action, act("A3 h"));
    assert_eq!(b.history()[1].colour, White);
    for k in (0..script.len()).rev() {
        assert!(b.undo());
        assert_eq!(b, snapshots[k]);
    }
    assert_eq!(b, start);
    assert!(!b.undo());
}

#[test]
fn refused_moves_change_nothing() {
    let mut b = facing();
    play(&mut b, White, &["E6 h"]);
    let before = b.clone();
    for m in ["E6", "E7", "Z1", "E6 h", "E6 v", "F6 h", "A1 h", "I2 v"] {
        assert!(b.play(White, act(m)).is_err(), "{m}");
        assert_eq!(b, before, "{m}");
    }
}

#[test]
fn consecutive_moves_of_one_colour() {
    let mut b = board(5, 3);
    play(&mut b, White, &["C2", "C3", "B2 h", "D2 h"]);
    play(&mut b, White, &["B3"]);
    assert_eq!(b.history_len(), 5);
    assert!(b.history().iter().all(|e| e.colour == White));
}

// ------------------------------------------------------------ draw

#[test]
fn draw_matches_reference_showboard() {
    // The reference engine's showboard after the wall-geometry session
    // (trailing spaces trimmed).
    let mut b = board(9, 10);
    play(&mut b, White, &["C5 v"]);
    play(&mut b, Black, &["C7 v", "C3 v", "B5 h", "D5 h", "B6 h"]);
    let expected = "     A   B   C   D   E   F   G   H   I
   +---+---+---+---+---+---+---+---+---+
 9 |   |   |   |   | B |   |   |   |   | 9  black walls:  5
   +---+---+---+---+---+---+---+---+---+
 8 |   |   |   |   |   |   |   |   |   | 8  white walls:  9
   +---+---+---+---+---+---+---+---+---+
 7 |   |   |   H   |   |   |   |   |   | 7
   +---+---+---H---+---+---+---+---+---+
 6 |   |   |   H   |   |   |   |   |   | 6
   +---+=======+---+---+---+---+---+---+
 5 |   |   |   H   |   |   |   |   |   | 5
   +---+=======H=======+---+---+---+---+
 4 |   |   |   H   |   |   |   |   |   | 4
   +---+---+---+---+---+---+---+---+---+
 3 |   |   |   H   |   |   |   |   |   | 3
   +---+---+---H---+---+---+---+---+---+
 2 |   |   |   H   |   |   |   |   |   | 2
   +---+---+---+---+---+---+---+---+---+
 1 |   |   |   |   | W |   |   |   |   | 1
   +---+---+---+---+---+---+---+---+---+
     A   B   C   D   E   F   G   H   I
";
    assert_eq!(b.draw(), expected);
}

#[test]
fn draw_small_and_large() {
    let b = board(3, 0);
    assert_eq!(
        b.draw(),
        "     A   B   C
   +---+---+---+
 3 |   | B |   | 3  black walls:  0
   +---+---+---+
 2 |   |   |   | 2  white walls:  0
   +---+---+---+
 1 |   | W |   | 1
   +---+---+---+
     A   B   C
"
    );
    let big = board(25, 38).draw();
    assert_eq!(big.lines().count(), 2 * 25 + 3);
    assert!(big.contains("\n25 |"));
    assert!(big.ends_with("Y\n"));
}
