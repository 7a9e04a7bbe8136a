//! The Kalah board as a picture for the HTML report: North's row on top
//! (its hole 1 on the right, as North sees it from across the table),
//! South's row below, North's store on the left and South's on the right,
//! each pit with its seed count — the layout of [`Board::draw`]. The counts
//! come last: what comes before them stays the same all game, so the report
//! draws it once for all the steps.

use super::rules::{Board, Side};
use crate::outcome::{Ink, Picture, Shape};

/// Distance between the centres of neighbouring holes.
const PITCH: i32 = 56;
const HOLE_RADIUS: u32 = 23;
const STORE_WIDTH: u32 = 48;
const MARGIN: i32 = 12;
/// Room above and below the rows for the hole names.
const LABEL_BAND: i32 = 18;

/// Where the rows of holes are: (x of the first column, y of North's row,
/// y of South's row).
fn rows() -> (i32, i32, i32) {
    let rows_left = MARGIN + STORE_WIDTH as i32 + 8;
    let north_y = MARGIN + LABEL_BAND + PITCH / 2;
    (rows_left, north_y, north_y + PITCH + 8)
}

/// The centre of `side`'s hole `hole` (1-based) on a board of `n` holes a
/// side: North's hole 1 is on the right, South's on the left.
fn hole_centre(n: i32, side: Side, hole: i32) -> (i32, i32) {
    let (rows_left, north_y, south_y) = rows();
    let (column, y) = if side == Side::North {
        (n - hole, north_y)
    } else {
        (hole - 1, south_y)
    };
    (rows_left + column * PITCH + PITCH / 2, y)
}

/// `bot`: the bot's side, marked (its holes drawn as `Marked`).
pub fn picture(board: &Board, bot: Option<Side>, caption: String) -> Picture {
    let n = board.holes() as i32;
    let (rows_left, north_y, south_y) = rows();
    let width = rows_left + n * PITCH + 8 + STORE_WIDTH as i32 + MARGIN;
    let height = south_y + PITCH / 2 + LABEL_BAND + MARGIN;
    let mut shapes = vec![Shape::board(width, height, 18)];
    let mut counts = Vec::new();
    let store_top = north_y - PITCH / 2 + 4;
    let store_height = (south_y - north_y + PITCH - 8) as u32;
    for (side, x) in [
        (Side::North, MARGIN),
        (Side::South, width - MARGIN - STORE_WIDTH as i32),
    ] {
        shapes.push(Shape::Rect {
            x,
            y: store_top,
            w: STORE_WIDTH,
            h: store_height,
            round: STORE_WIDTH / 2,
            ink: Ink::Store,
        });
        counts.push(Shape::Text {
            x: x + STORE_WIDTH as i32 / 2,
            y: (north_y + south_y) / 2,
            size: 20,
            text: board.store(side).to_string(),
            ink: Ink::Count,
        });
        shapes.push(Shape::Text {
            x: x + STORE_WIDTH as i32 / 2,
            y: if side == Side::North {
                MARGIN + LABEL_BAND / 2
            } else {
                height - MARGIN - LABEL_BAND / 2
            },
            size: 11,
            text: format!("{} store", side.letter()),
            ink: Ink::Label,
        });
    }
    for side in [Side::North, Side::South] {
        let y = if side == Side::North {
            north_y
        } else {
            south_y
        };
        let label_y = if side == Side::North {
            y - PITCH / 2 - LABEL_BAND / 2 + 4
        } else {
            y + PITCH / 2 + LABEL_BAND / 2 - 4
        };
        for hole in 1..=n {
            let (x, _) = hole_centre(n, side, hole);
            shapes.push(Shape::Circle {
                x,
                y,
                r: HOLE_RADIUS,
                ink: if bot == Some(side) {
                    Ink::Marked
                } else {
                    Ink::Place
                },
            });
            counts.push(Shape::Text {
                x,
                y,
                size: 18,
                text: board.seeds_in(side, hole as usize).to_string(),
                ink: Ink::Count,
            });
            shapes.push(Shape::Text {
                x,
                y: label_y,
                size: 11,
                text: format!("{}{hole}", side.letter()),
                ink: Ink::Label,
            });
        }
    }
    shapes.append(&mut counts);
    Picture {
        width: width as u32,
        height: height as u32,
        shapes,
        caption: Some(caption),
    }
}

/// `p` with a ring on the hole the bot's move named (`side`'s hole `hole`,
/// 1-based), over everything else; a hole the board does not have is not
/// drawn (the finding says it does not exist).
pub fn mark_named(p: &mut Picture, board: &Board, side: Side, hole: usize) {
    let n = board.holes();
    if !(1..=n).contains(&hole) {
        return;
    }
    let (x, y) = hole_centre(n as i32, side, hole as i32);
    p.shapes.push(Shape::Circle {
        x,
        y,
        r: HOLE_RADIUS + 3,
        ink: Ink::Named,
    });
}

/// `p` with the hole named (`named`: the bot's side and hole), if any.
pub fn with_named(mut p: Picture, board: &Board, named: Option<(Side, usize)>) -> Picture {
    if let Some((side, hole)) = named {
        mark_named(&mut p, board, side, hole);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pit_is_drawn_with_its_count() {
        let board = Board::from_counts(3, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let p = picture(&board, Some(Side::South), "South to move".into());
        let t = p.texts();
        // Stores (with their names), then North's holes 1..3, South's 1..3.
        for count in ["1", "2", "3", "4", "5", "6", "7", "8"] {
            assert!(t.contains(&count), "{count} missing in {t:?}");
        }
        for name in ["N1", "N3", "S1", "S3", "N store", "S store"] {
            assert!(t.contains(&name), "{name} missing in {t:?}");
        }
        let marked = p
            .shapes
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    Shape::Circle {
                        ink: Ink::Marked,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(marked, 3, "the bot's three holes are marked");
        assert_eq!(p.caption.as_deref(), Some("South to move"));
    }

    #[test]
    fn only_the_counts_change_and_they_come_last() {
        let a = Board::from_counts(3, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let b = Board::from_counts(3, &[0, 3, 4, 4, 5, 6, 7, 7]).unwrap();
        let (a, b) = (
            picture(&a, Some(Side::North), "x".into()),
            picture(&b, Some(Side::North), "x".into()),
        );
        let fixed = a.shapes.len() - 8;
        assert_eq!(a.shapes[..fixed], b.shapes[..fixed]);
        assert_ne!(a.shapes[fixed..], b.shapes[fixed..]);
        assert!(a.shapes[fixed..].iter().all(|s| matches!(
            s,
            Shape::Text {
                ink: Ink::Count,
                ..
            }
        )));
    }

    #[test]
    fn the_named_hole_is_ringed_last_and_a_missing_one_not_at_all() {
        let board = Board::from_counts(3, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let plain = picture(&board, Some(Side::North), "x".into());
        let mut p = plain.clone();
        mark_named(&mut p, &board, Side::North, 1);
        assert_eq!(p.shapes[..plain.shapes.len()], plain.shapes[..]);
        let [ring] = &p.shapes[plain.shapes.len()..] else {
            panic!("one ring expected: {:?}", p.shapes);
        };
        let label_x = |wanted: &str| {
            p.shapes.iter().find_map(|s| match s {
                Shape::Text { x, text, .. } if text == wanted => Some(*x),
                _ => None,
            })
        };
        let Shape::Circle { x, ink, .. } = ring else {
            panic!("{ring:?}");
        };
        assert_eq!((*x, *ink), (label_x("N1").unwrap(), Ink::Named));
        let mut out_of_range = plain.clone();
        mark_named(&mut out_of_range, &board, Side::South, 0);
        mark_named(&mut out_of_range, &board, Side::South, 4);
        assert_eq!(out_of_range, plain);
    }

    #[test]
    fn north_hole_one_is_on_the_right() {
        let board = Board::from_counts(2, &[9, 1, 0, 0, 0, 0]).unwrap();
        let p = picture(&board, None, String::new());
        let x_of = |wanted: &str| {
            p.shapes.iter().find_map(|s| match s {
                Shape::Text { x, text, .. } if text == wanted => Some(*x),
                _ => None,
            })
        };
        assert!(x_of("N1").unwrap() > x_of("N2").unwrap());
        assert!(x_of("S1").unwrap() < x_of("S2").unwrap());
        // Every shape lies inside the picture.
        p.assert_inside(MARGIN);
    }
}
