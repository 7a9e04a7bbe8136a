//! Walls: the edges each blocks, where one may stand, overlaps (§3.3).

use super::*;

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
