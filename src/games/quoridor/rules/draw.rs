//! The ASCII diagram of [`Board::draw`], in the reference engine's
//! `showboard` style (trailing spaces trimmed):
//!
//! ```text
//!      A   B   C
//!    +---+---+---+
//!  3 |   | B |   | 3  black walls:  0
//!    +---+---+---+
//!  2 |   |   |   | 2  white walls:  0
//!    +---+---+---+
//!  1 |   | W |   | 1
//!    +---+---+---+
//!      A   B   C
//! ```
//!
//! A horizontal wall is drawn as `=======` over its two cells and its centre;
//! a vertical wall as `‖` beside its two cells and at its centre ([`VERTICAL`]:
//! not `H`, which reads as "horizontal").

use super::{Board, Cell, Colour, Orientation, Wall};
use std::fmt::Write;

/// How a vertical wall is drawn.
pub const VERTICAL: char = '‖';
/// How a horizontal wall is drawn (three per cell, one at its centre).
pub const HORIZONTAL: char = '=';

pub(super) fn draw(b: &Board) -> String {
    let n = b.size();
    let mut out = String::new();
    let letters = |out: &mut String| {
        out.push_str("    ");
        for col in 0..n {
            out.push_str(if col == 0 { " " } else { "   " });
            out.push(char::from(b'A' + col));
        }
        out.push('\n');
    };
    let border = |out: &mut String| {
        out.push_str("   +");
        for _ in 0..n {
            out.push_str("---+");
        }
        out.push('\n');
    };
    letters(&mut out);
    border(&mut out);
    for row in (0..n).rev() {
        let _ = write!(out, "{:>2} |", row + 1);
        for col in 0..n {
            let c = Cell::new(col, row);
            let pawn = if b.pawn(Colour::Black) == c {
                'B'
            } else if b.pawn(Colour::White) == c {
                'W'
            } else {
                ' '
            };
            out.push(' ');
            out.push(pawn);
            out.push(' ');
            let walled = col + 1 < n && !b.edge_open(c, super::Direction::East);
            out.push(if walled { VERTICAL } else { '|' });
        }
        let _ = write!(out, " {}", row + 1);
        if row == n - 1 {
            let _ = write!(out, "  black walls: {:>2}", b.walls_left(Colour::Black));
        } else if row + 2 == n {
            let _ = write!(out, "  white walls: {:>2}", b.walls_left(Colour::White));
        }
        out.push('\n');
        if row == 0 {
            border(&mut out);
            break;
        }
        // The line between `row` and `row - 1`: walls anchored on `row`.
        out.push_str("   +");
        for col in 0..n {
            let below = Cell::new(col, row - 1);
            let walled = !b.edge_open(below, super::Direction::North);
            out.push_str(if walled { "===" } else { "---" });
            if col + 1 < n {
                let anchor = Cell::new(col, row);
                let junction = if b.has_wall(Wall::new(anchor, Orientation::Vertical)) {
                    VERTICAL
                } else if b.has_wall(Wall::new(anchor, Orientation::Horizontal)) {
                    HORIZONTAL
                } else {
                    '+'
                };
                out.push(junction);
            } else {
                out.push('+');
            }
        }
        out.push('\n');
    }
    letters(&mut out);
    out
}
