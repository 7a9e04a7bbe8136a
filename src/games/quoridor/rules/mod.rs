//! Quoridor rules as the University of Athens referee and its reference
//! engine implement them (`shared/rules/quoridor.md` §3).
//!
//! Pure and allocation-free on the hot paths: walls and blocked edges are
//! bitsets, the path check is a breadth-first search over a fixed-size queue,
//! and pawn-move generation fills a fixed buffer. Only [`Board::play`] (the
//! history) and the callers' buffers of [`Board::legal_walls`] and
//! [`Board::legal_actions`] touch the heap; [`Board::for_each_legal_wall`]
//! never does.
//!
//! Coordinates are 0-based internally: `Cell { col: 0, row: 0 }` is QTP `A1`,
//! the south-west corner; rows grow northwards. A wall is named as QTP names
//! it, by the cell north-west of its centre (§3.3), so `E2 h` is
//! `Wall { anchor: Cell { col: 4, row: 1 }, orientation: Horizontal }`.

pub mod draw;
mod geometry;
mod illegal;
mod paths;
mod pawn_moves;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
mod walls;

use geometry::offset;
pub use geometry::{Action, Cell, Colour, Direction, Orientation, Wall};
pub use illegal::Illegal;
pub use pawn_moves::PawnMoves;

/// Smallest board protocheck uses (§3.1).
pub const MIN_SIZE: u8 = 3;
/// Largest board the protocol supports (§3.1).
pub const MAX_SIZE: u8 = 25;
/// Cells on the largest board.
pub const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;
/// Default board size (§3.1).
pub const DEFAULT_SIZE: u8 = 9;
/// The most legal pawn destinations a position can have: three steps plus two
/// side-steps, or three steps plus one jump.
pub const MAX_PAWN_MOVES: usize = 5;

const WORDS: usize = MAX_CELLS.div_ceil(64);

/// One history entry: every successful move, whatever the colour (§3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HistoryEntry {
    pub colour: Colour,
    pub action: Action,
    /// Where the colour's pawn stood before the move.
    pub from: Cell,
}

/// A fixed-size bitset over at most [`MAX_CELLS`] indices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Bits([u64; WORDS]);

impl Bits {
    #[inline]
    fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }
    #[inline]
    fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
    #[inline]
    fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }
}

/// Blocked cell edges. Bit `i` of `north` blocks cell `i` ↔ its northern
/// neighbour; bit `i` of `east` blocks cell `i` ↔ its eastern neighbour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Edges {
    north: Bits,
    east: Bits,
}

/// The referee's default wall count `int(7/4·N − 23/4)`, truncated towards
/// zero (§3.3): 0, 3, 6, 10 … 38 for N = 3, 5, 7, 9 … 25.
pub fn default_walls(size: u8) -> u8 {
    let w = (7 * i32::from(size) - 23) / 4;
    w.clamp(0, i32::from(u8::MAX)) as u8
}

/// The start cell of a colour (§3.2): column index ⌊N/2⌋, white on row 1,
/// black on row N. Defined for even N too (the eastern middle column), though
/// protocheck never uses even sizes.
pub fn start_cell(size: u8, colour: Colour) -> Cell {
    let col = size / 2;
    match colour {
        Colour::White => Cell::new(col, 0),
        Colour::Black => Cell::new(col, size - 1),
    }
}

/// The 0-based goal row of a colour: white goes to row N, black to row 1.
pub fn goal_row(size: u8, colour: Colour) -> u8 {
    match colour {
        Colour::White => size - 1,
        Colour::Black => 0,
    }
}

/// A board size §3.1 (or protocheck) does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    #[error("unacceptable size {size}: the board size must be from {MIN_SIZE} to {MAX_SIZE}")]
    OutOfRange { size: u8 },
    #[error("unacceptable size {size}: protocheck uses odd board sizes only")]
    Even { size: u8 },
}

/// A board size refused where a game is set up, kept whole.
impl From<SizeError> for crate::games::SetupError {
    fn from(error: SizeError) -> Self {
        crate::games::SetupError::Rules(crate::games::RulesError::new(error))
    }
}

/// Checks a board size against §3.1: odd N from 3 to 25.
pub fn validate_size(size: u8) -> Result<(), SizeError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(SizeError::OutOfRange { size });
    }
    if size.is_multiple_of(2) {
        return Err(SizeError::Even { size });
    }
    Ok(())
}

/// A Quoridor position with its history.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    initial_walls: u8,
    pawns: [Cell; 2],
    walls_left: [u8; 2],
    /// Placed walls by centre index (see [`Board::centre_index`]).
    horizontal: Bits,
    vertical: Bits,
    edges: Edges,
    history: Vec<HistoryEntry>,
}

impl Board {
    /// The start position (§3.2): pawns on their start cells, no walls,
    /// `walls` walls each, empty history. `size` must be odd, 3..=25.
    pub fn new(size: u8, walls: u8) -> Result<Board, SizeError> {
        validate_size(size)?;
        Ok(Board {
            size,
            initial_walls: walls,
            pawns: [
                start_cell(size, Colour::Black),
                start_cell(size, Colour::White),
            ],
            walls_left: [walls; 2],
            horizontal: Bits::default(),
            vertical: Bits::default(),
            edges: Edges::default(),
            history: Vec::new(),
        })
    }

    /// [`Board::new`] with the referee's [`default_walls`].
    pub fn with_default_walls(size: u8) -> Result<Board, SizeError> {
        Board::new(size, default_walls(size))
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// The wall count each colour started with.
    pub fn initial_walls(&self) -> u8 {
        self.initial_walls
    }

    pub fn pawn(&self, c: Colour) -> Cell {
        self.pawns[c.index()]
    }

    pub fn walls_left(&self, c: Colour) -> u8 {
        self.walls_left[c.index()]
    }

    pub fn on_board(&self, c: Cell) -> bool {
        c.col < self.size && c.row < self.size
    }

    /// Every cell, row by row from `A1`.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let n = self.size;
        (0..n).flat_map(move |row| (0..n).map(move |col| Cell::new(col, row)))
    }

    /// Every wall slot with a legal anchor (§3.3), 2(N−1)² of them, ordered
    /// by anchor row, then column, horizontal before vertical.
    pub fn wall_slots(&self) -> impl Iterator<Item = Wall> + use<> {
        let n = self.size;
        (1..n).flat_map(move |row| {
            (0..n - 1)
                .flat_map(move |col| Orientation::ALL.map(|o| Wall::new(Cell::new(col, row), o)))
        })
    }

    /// The placed walls, in [`Board::wall_slots`] order.
    pub fn placed_walls(&self) -> impl Iterator<Item = Wall> + '_ {
        self.wall_slots().filter(|w| self.has_wall(*w))
    }

    /// Whether exactly this wall is placed.
    pub fn has_wall(&self, w: Wall) -> bool {
        match self.centre_index(w) {
            Some(i) => match w.orientation {
                Orientation::Horizontal => self.horizontal.get(i),
                Orientation::Vertical => self.vertical.get(i),
            },
            None => false,
        }
    }

    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The colour whose pawn stands on its goal row (§3.5).
    pub fn winner(&self) -> Option<Colour> {
        if self.pawn(Colour::White).row == goal_row(self.size, Colour::White) {
            Some(Colour::White)
        } else if self.pawn(Colour::Black).row == goal_row(self.size, Colour::Black) {
            Some(Colour::Black)
        } else {
            None
        }
    }

    /// Whether the edge from `c` towards `d` is on the board and not walled.
    pub fn edge_open(&self, c: Cell, d: Direction) -> bool {
        self.on_board(c) && self.neighbour(&self.edges, c, d).is_some()
    }

    /// Checks a move without playing it. Consecutive moves of one colour are
    /// legal (QTP has no turn order, §2.3).
    pub fn check(&self, c: Colour, a: Action) -> Result<(), Illegal> {
        if self.winner().is_some() {
            return Err(Illegal::GameOver);
        }
        match a {
            Action::Step(dest) => self.check_step(c, dest),
            Action::Place(w) => self.check_wall(c, w),
        }
    }

    /// Plays a move; on `Err` the board is unchanged.
    pub fn play(&mut self, c: Colour, a: Action) -> Result<(), Illegal> {
        self.check(c, a)?;
        let from = self.pawn(c);
        match a {
            Action::Step(dest) => self.pawns[c.index()] = dest,
            Action::Place(w) => {
                self.put_wall(w);
                self.walls_left[c.index()] -= 1;
            }
        }
        self.history.push(HistoryEntry {
            colour: c,
            action: a,
            from,
        });
        Ok(())
    }

    /// Takes back the last history entry; `false` (and no change) when the
    /// history is empty.
    pub fn undo(&mut self) -> bool {
        let Some(e) = self.history.pop() else {
            return false;
        };
        match e.action {
            Action::Step(_) => self.pawns[e.colour.index()] = e.from,
            Action::Place(w) => {
                self.remove_wall(w);
                self.walls_left[e.colour.index()] += 1;
            }
        }
        true
    }

    /// `undo k` (§3.6): takes back the last `k` entries, or fails with no
    /// change when `k` exceeds the history. `k = 0` succeeds and changes
    /// nothing, as in the reference engine (its answer to `undo 0` is `=`,
    /// even with an empty history).
    pub fn undo_n(&mut self, k: usize) -> bool {
        if k > self.history.len() {
            return false;
        }
        for _ in 0..k {
            self.undo();
        }
        true
    }

    /// Every legal action of the colour: pawn moves first, then walls.
    /// Clears `out` first.
    pub fn legal_actions(&self, c: Colour, out: &mut Vec<Action>) {
        out.clear();
        out.extend(self.legal_pawn_moves(c).map(Action::Step));
        self.for_each_legal_wall(c, |w| out.push(Action::Place(w)));
    }

    /// The position as an ASCII diagram in the reference engine's
    /// `showboard` style, for human reports. Ends with a newline.
    pub fn draw(&self) -> String {
        draw::draw(self)
    }

    // ---- internals ----

    fn cell_index(&self, c: Cell) -> usize {
        c.row as usize * self.size as usize + c.col as usize
    }

    fn cell_at(&self, i: usize) -> Cell {
        let n = self.size as usize;
        Cell::new((i % n) as u8, (i / n) as u8)
    }
}
