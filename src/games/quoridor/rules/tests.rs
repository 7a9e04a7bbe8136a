//! Unit tests for the rule engine: every rule and example of
//! `shared/rules/quoridor.md` §3, with the reasons the engine gives.

use super::*;
use crate::games::quoridor::notation::{parse_vertex, parse_wall};
use Colour::{Black, White};

mod pawn_moves;
mod walls;

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
        assert!(e.to_string().contains("unacceptable size"), "{n}: {e}");
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
fn draw_matches_reference_showboard_with_distinct_vertical_walls() {
    // The reference engine's showboard after the wall-geometry session
    // (trailing spaces trimmed), except that vertical walls are `‖`, not
    // the reference's `H`, which reads as "horizontal".
    let mut b = board(9, 10);
    play(&mut b, White, &["C5 v"]);
    play(&mut b, Black, &["C7 v", "C3 v", "B5 h", "D5 h", "B6 h"]);
    let expected = "     A   B   C   D   E   F   G   H   I
   +---+---+---+---+---+---+---+---+---+
 9 |   |   |   |   | B |   |   |   |   | 9  black walls:  5
   +---+---+---+---+---+---+---+---+---+
 8 |   |   |   |   |   |   |   |   |   | 8  white walls:  9
   +---+---+---+---+---+---+---+---+---+
 7 |   |   |   ‖   |   |   |   |   |   | 7
   +---+---+---‖---+---+---+---+---+---+
 6 |   |   |   ‖   |   |   |   |   |   | 6
   +---+=======+---+---+---+---+---+---+
 5 |   |   |   ‖   |   |   |   |   |   | 5
   +---+=======‖=======+---+---+---+---+
 4 |   |   |   ‖   |   |   |   |   |   | 4
   +---+---+---+---+---+---+---+---+---+
 3 |   |   |   ‖   |   |   |   |   |   | 3
   +---+---+---‖---+---+---+---+---+---+
 2 |   |   |   ‖   |   |   |   |   |   | 2
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
