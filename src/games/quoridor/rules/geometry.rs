//! Where things are: players, cells, directions, walls and the actions
//! that name them (0-based internally; `A1` is column 0, row 0).

/// A player. QTP black starts on the north edge and moves first (§3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    /// Both colours, black first.
    pub const ALL: [Colour; 2] = [Colour::Black, Colour::White];
    /// The colour the referee asks to move first (§3.2).
    pub const FIRST: Colour = Colour::Black;

    pub fn opposite(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// `"black"` or `"white"`: the canonical QTP spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }

    pub(super) fn index(self) -> usize {
        match self {
            Colour::Black => 0,
            Colour::White => 1,
        }
    }
}

/// A board cell, 0-based: `col` 0 is column `A`, `row` 0 is QTP row 1 (south).
/// A parsed cell may lie off the board; the board rejects it then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub col: u8,
    pub row: u8,
}

impl Cell {
    pub const fn new(col: u8, row: u8) -> Cell {
        Cell { col, row }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Orientation {
    Horizontal,
    Vertical,
}

impl Orientation {
    pub const ALL: [Orientation; 2] = [Orientation::Horizontal, Orientation::Vertical];

    pub fn other(self) -> Orientation {
        match self {
            Orientation::Horizontal => Orientation::Vertical,
            Orientation::Vertical => Orientation::Horizontal,
        }
    }
}

/// A wall, named as QTP names it: by the cell north-west of its centre.
///
/// * Horizontal `Xr h` blocks `Xr`↔`X(r−1)` and `(X+1)r`↔`(X+1)(r−1)`.
/// * Vertical `Xr v` blocks `Xr`↔`(X+1)r` and `X(r−1)`↔`(X+1)(r−1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wall {
    pub anchor: Cell,
    pub orientation: Orientation,
}

impl Wall {
    pub const fn new(anchor: Cell, orientation: Orientation) -> Wall {
        Wall {
            anchor,
            orientation,
        }
    }
}

/// A move: the pawn's destination, or a wall placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Step(Cell),
    Place(Wall),
}

/// The four directions of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    North,
    East,
    South,
    West,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    pub(super) fn perpendicular(self) -> [Direction; 2] {
        match self {
            Direction::North | Direction::South => [Direction::West, Direction::East],
            Direction::East | Direction::West => [Direction::South, Direction::North],
        }
    }
}

/// The cell one step from `c` in direction `d`, ignoring the board's far edges
/// (only underflow is excluded).
pub(super) fn offset(c: Cell, d: Direction) -> Option<Cell> {
    match d {
        Direction::North => Some(Cell::new(c.col, c.row.checked_add(1)?)),
        Direction::South => Some(Cell::new(c.col, c.row.checked_sub(1)?)),
        Direction::East => Some(Cell::new(c.col.checked_add(1)?, c.row)),
        Direction::West => Some(Cell::new(c.col.checked_sub(1)?, c.row)),
    }
}
