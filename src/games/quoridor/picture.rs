//! The Quoridor board as a picture for the HTML report: the grid seen from
//! the south (row 1 at the bottom, column A on the left, as `showboard`
//! draws it), walls in the grooves between cells, both pawns, and the last
//! move marked (the cell a pawn left, or the wall just placed). What never
//! changes in a game (board, cells, coordinates) comes first, so the report
//! draws it once for all the steps.

use super::rules::{Action, Board, Cell, Colour, Orientation, Wall};
use crate::outcome::{Ink, Picture, Shape};

const CELL: i32 = 34;
/// The groove between cells, where walls go.
const GROOVE: i32 = 8;
const PITCH: i32 = CELL + GROOVE;
/// Room on the left and below for the coordinates.
const LABELS: i32 = 22;
const MARGIN: i32 = 8;

/// Top-left corner of a cell on a board of `n` cells a side.
fn cell_corner(n: i32, c: Cell) -> (i32, i32) {
    (
        MARGIN + LABELS + i32::from(c.col) * PITCH,
        MARGIN + (n - 1 - i32::from(c.row)) * PITCH,
    )
}

pub fn picture(board: &Board) -> Picture {
    let n = i32::from(board.size());
    let side = n * PITCH - GROOVE;
    let width = MARGIN + LABELS + side + MARGIN;
    let height = MARGIN + side + LABELS + MARGIN;
    let corner = |c: Cell| cell_corner(n, c);
    let last = board.history().last();
    let mut shapes = vec![Shape::Rect {
        x: MARGIN + LABELS - GROOVE / 2,
        y: MARGIN - GROOVE / 2,
        w: (side + GROOVE) as u32,
        h: (side + GROOVE) as u32,
        round: 4,
        ink: Ink::Board,
    }];
    for row in 0..board.size() {
        for col in 0..board.size() {
            let (x, y) = corner(Cell::new(col, row));
            shapes.push(Shape::Rect {
                x,
                y,
                w: CELL as u32,
                h: CELL as u32,
                round: 3,
                ink: Ink::Place,
            });
        }
    }
    for i in 0..n {
        let letter = char::from(b'A' + i as u8).to_string();
        shapes.push(Shape::Text {
            x: MARGIN + LABELS + i * PITCH + CELL / 2,
            y: MARGIN + side + LABELS / 2 + 2,
            size: 12,
            text: letter,
            ink: Ink::Label,
        });
        shapes.push(Shape::Text {
            x: MARGIN + LABELS / 2 - 2,
            y: MARGIN + (n - 1 - i) * PITCH + CELL / 2,
            size: 12,
            text: (i + 1).to_string(),
            ink: Ink::Label,
        });
    }
    let just_placed = match last.map(|h| (h.action, h.from)) {
        Some((Action::Place(w), _)) => Some(w),
        Some((Action::Step(_), from)) => {
            // The cell the pawn left, over the plain one.
            let (x, y) = corner(from);
            shapes.push(Shape::Rect {
                x,
                y,
                w: CELL as u32,
                h: CELL as u32,
                round: 3,
                ink: Ink::Marked,
            });
            None
        }
        None => None,
    };
    for wall in board.placed_walls() {
        shapes.push(wall_shape(
            wall,
            corner(wall.anchor),
            just_placed == Some(wall),
        ));
    }
    for (colour, ink) in [(Colour::Black, Ink::First), (Colour::White, Ink::Second)] {
        let (x, y) = corner(board.pawn(colour));
        shapes.push(Shape::Circle {
            x: x + CELL / 2,
            y: y + CELL / 2,
            r: (CELL / 2 - 5) as u32,
            ink,
        });
    }
    let moved = match last {
        Some(h) => format!("; last move: {}", h.colour.as_str()),
        None => String::new(),
    };
    Picture {
        width: width as u32,
        height: height as u32,
        shapes,
        caption: Some(format!(
            "walls left: black {}, white {}{moved}",
            board.walls_left(Colour::Black),
            board.walls_left(Colour::White)
        )),
    }
}

/// `p` with what the bot's move named outlined over everything else: the
/// square its pawn was sent to, or the wall it chose (legal or not: an
/// illegal one is drawn nowhere else). A square off the board, or a wall
/// anchored off it, is not drawn.
pub fn mark_named(p: &mut Picture, board: &Board, action: Action) {
    let size = board.size();
    let n = i32::from(size);
    let shape = match action {
        Action::Step(cell) if cell.col < size && cell.row < size => {
            let (x, y) = cell_corner(n, cell);
            Shape::Rect {
                x,
                y,
                w: CELL as u32,
                h: CELL as u32,
                round: 3,
                ink: Ink::Named,
            }
        }
        // A wall whose anchor is on the board lies within the picture, even
        // one that sticks out of the board (an illegal wall is drawn where
        // the bot put it).
        Action::Place(wall) if wall.anchor.col < size && wall.anchor.row < size => {
            match wall_shape(wall, cell_corner(n, wall.anchor), false) {
                Shape::Rect { x, y, w, h, .. } => Shape::Rect {
                    x,
                    y,
                    w,
                    h,
                    round: 2,
                    ink: Ink::Named,
                },
                other => other,
            }
        }
        _ => return,
    };
    p.shapes.push(shape);
}

/// A wall fills the groove beside its anchor (the cell north-west of its
/// centre) along two cells and the crossing between them.
fn wall_shape(wall: Wall, (x, y): (i32, i32), just_placed: bool) -> Shape {
    let long = (2 * CELL + GROOVE) as u32;
    let (x, y, w, h) = match wall.orientation {
        // Between the anchor's row and the row below, over two columns.
        Orientation::Horizontal => (x, y + CELL + 1, long, (GROOVE - 2) as u32),
        // Between the anchor's column and the next, over two rows.
        Orientation::Vertical => (x + CELL + 1, y, (GROOVE - 2) as u32, long),
    };
    Shape::Rect {
        x,
        y,
        w,
        h,
        round: 2,
        ink: if just_placed { Ink::Marked } else { Ink::Wall },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walls(p: &Picture) -> Vec<(i32, i32, u32, u32)> {
        p.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Rect {
                    x, y, w, h, ink, ..
                } if *w != *h && *ink != Ink::Board => Some((*x, *y, *w, *h)),
                _ => None,
            })
            .collect()
    }

    fn pawn(p: &Picture, wanted: Ink) -> (i32, i32) {
        p.shapes
            .iter()
            .find_map(|s| match s {
                Shape::Circle { x, y, ink, .. } if *ink == wanted => Some((*x, *y)),
                _ => None,
            })
            .unwrap()
    }

    #[test]
    fn pawns_start_north_and_south() {
        let board = Board::with_default_walls(9).unwrap();
        let p = picture(&board);
        let black = pawn(&p, Ink::First);
        let white = pawn(&p, Ink::Second);
        assert!(black.1 < white.1, "black starts on the north edge (top)");
        assert_eq!(black.0, white.0, "both in column E");
        // 81 cells, a board, 18 labels, two pawns, no walls.
        assert_eq!(p.shapes.len(), 81 + 1 + 18 + 2);
        assert!(walls(&p).is_empty());
        assert_eq!(p.caption.as_deref(), Some("walls left: black 10, white 10"));
    }

    #[test]
    fn a_placed_wall_is_drawn_in_its_groove_and_marked() {
        let mut board = Board::with_default_walls(9).unwrap();
        // E5 horizontal: between rows 5 and 4, under columns E and F.
        let wall = Wall::new(Cell::new(4, 4), Orientation::Horizontal);
        board.play(Colour::Black, Action::Place(wall)).unwrap();
        let p = picture(&board);
        let drawn = walls(&p);
        assert_eq!(drawn.len(), 1);
        let (x, y, w, h) = drawn[0];
        assert!(w > h, "horizontal");
        // Column E's left edge; just under row 5's cells (row 5 is the fifth
        // row from the top on a 9×9 board).
        assert_eq!(x, MARGIN + LABELS + 4 * PITCH);
        assert_eq!(y, MARGIN + (9 - 1 - 4) * PITCH + CELL + 1);
        assert_eq!(w, (2 * CELL + GROOVE) as u32, "two cells and the crossing");
        // The wall just placed is the last move: marked.
        assert!(matches!(
            p.shapes
                .iter()
                .find(|s| matches!(s, Shape::Rect { w, .. } if *w == w_long())),
            Some(Shape::Rect {
                ink: Ink::Marked,
                ..
            })
        ));
        assert_eq!(
            p.caption.as_deref(),
            Some("walls left: black 9, white 10; last move: black")
        );
    }

    #[test]
    fn what_a_game_never_changes_comes_first() {
        let start = Board::with_default_walls(9).unwrap();
        let mut moved = start.clone();
        moved
            .play(Colour::Black, Action::Step(Cell::new(4, 7)))
            .unwrap();
        let (a, b) = (picture(&start), picture(&moved));
        let fixed = 1 + 81 + 18;
        assert_eq!(a.shapes[..fixed], b.shapes[..fixed]);
        // After a step: the cell left (E9) marked, then the pawns.
        assert_eq!(b.shapes.len(), fixed + 1 + 2);
        assert!(matches!(
            b.shapes[fixed],
            Shape::Rect { ink: Ink::Marked, x, y, .. }
                if x == MARGIN + LABELS + 4 * PITCH && y == MARGIN
        ));
    }

    #[test]
    fn the_named_square_or_wall_is_outlined_last() {
        let board = Board::with_default_walls(9).unwrap();
        let plain = picture(&board);
        // A step to E8 (not played: the mark does not need it legal).
        let mut p = plain.clone();
        mark_named(&mut p, &board, Action::Step(Cell::new(4, 7)));
        assert_eq!(p.shapes[..plain.shapes.len()], plain.shapes[..]);
        assert_eq!(
            p.shapes[plain.shapes.len()..],
            [Shape::Rect {
                x: MARGIN + LABELS + 4 * PITCH,
                y: MARGIN + PITCH,
                w: CELL as u32,
                h: CELL as u32,
                round: 3,
                ink: Ink::Named,
            }]
        );
        // A wall: drawn where a placed one would be, in the named ink.
        let wall = Wall::new(Cell::new(4, 4), Orientation::Horizontal);
        let mut p = plain.clone();
        mark_named(&mut p, &board, Action::Place(wall));
        let mut placed = board.clone();
        placed.play(Colour::Black, Action::Place(wall)).unwrap();
        let Some(Shape::Rect { x, y, w, h, .. }) = picture(&placed).shapes.into_iter().find(|s| {
            matches!(
                s,
                Shape::Rect {
                    ink: Ink::Marked,
                    ..
                }
            )
        }) else {
            panic!("the placed wall is not drawn");
        };
        assert_eq!(
            p.shapes.last(),
            Some(&Shape::Rect {
                x,
                y,
                w,
                h,
                round: 2,
                ink: Ink::Named
            })
        );
        // Off the board: nothing.
        let mut p = plain.clone();
        mark_named(&mut p, &board, Action::Step(Cell::new(9, 0)));
        assert_eq!(p, plain);
    }

    fn w_long() -> u32 {
        (2 * CELL + GROOVE) as u32
    }
}
