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

mod draw;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

use std::fmt;

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

    fn index(self) -> usize {
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

    fn perpendicular(self) -> [Direction; 2] {
        match self {
            Direction::North | Direction::South => [Direction::West, Direction::East],
            Direction::East | Direction::West => [Direction::South, Direction::North],
        }
    }
}

/// Why a move is illegal. Every refused `playmove`/`playwall` names one of
/// these in its report (§8 `quoridor.playmove.rejects-illegal` and the
/// `quoridor.playwall.*` rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// A pawn already stands on its goal row; protocheck does not play on
    /// after a win (§3.5).
    GameOver,
    /// The destination cell is not on the board.
    OffBoard,
    /// The destination is the pawn's own cell: a pawn may not stay in place.
    StayInPlace,
    /// The destination is the other pawn's cell.
    Occupied,
    /// The destination is not a step, a jump or a side-step away.
    NotAdjacent,
    /// A wall blocks the step to a neighbouring cell.
    Blocked,
    /// A jump over the other pawn with a wall between the pawns or behind the
    /// other pawn.
    JumpBlocked,
    /// A diagonal side-step although the straight jump is open.
    SideStepNotAllowed,
    /// A diagonal side-step across a wall: between the pawns, or between the
    /// other pawn and the side-step cell.
    SideStepBlocked,
    /// The wall's anchor is in row 1, in the last column or off the board.
    WallOutOfRange,
    /// The wall duplicates or overlaps (shares a cell edge with) a placed wall.
    WallOverlap,
    /// The wall crosses a placed wall (same centre, other orientation).
    WallCrossing,
    /// The colour has no walls left.
    NoWallsLeft,
    /// The wall would leave this colour's pawn without a path to its goal row.
    PathBlocked(Colour),
}

impl Illegal {
    /// One sentence for humans.
    pub fn describe(self) -> &'static str {
        match self {
            Illegal::GameOver => "the game is already won",
            Illegal::OffBoard => "the destination is off the board",
            Illegal::StayInPlace => "the pawn would stay in place",
            Illegal::Occupied => "the destination is occupied by the other pawn",
            Illegal::NotAdjacent => "the destination is not reachable in one move",
            Illegal::Blocked => "a wall blocks the step",
            Illegal::JumpBlocked => "the jump is blocked by a wall or the board edge",
            Illegal::SideStepNotAllowed => {
                "a side-step is only allowed when the straight jump is blocked"
            }
            Illegal::SideStepBlocked => "the side-step crosses a wall",
            Illegal::WallOutOfRange => {
                "the wall anchor is in row 1, in the last column or off the board"
            }
            Illegal::WallOverlap => "the wall duplicates or overlaps a placed wall",
            Illegal::WallCrossing => "the wall crosses a placed wall",
            Illegal::NoWallsLeft => "the colour has no walls left",
            Illegal::PathBlocked(Colour::Black) => "the wall leaves black without a path",
            Illegal::PathBlocked(Colour::White) => "the wall leaves white without a path",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

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

/// The edges one wall blocks: `(is_north_edge, cell_index)` twice.
type WallEdges = [(bool, usize); 2];

/// Legal pawn destinations, in a fixed buffer. Iterates over the cells.
#[derive(Clone, Copy, Debug)]
pub struct PawnMoves {
    cells: [Cell; MAX_PAWN_MOVES],
    len: u8,
    pos: u8,
}

impl PawnMoves {
    fn empty() -> PawnMoves {
        PawnMoves {
            cells: [Cell::new(0, 0); MAX_PAWN_MOVES],
            len: 0,
            pos: 0,
        }
    }
    fn push(&mut self, c: Cell) {
        self.cells[self.len as usize] = c;
        self.len += 1;
    }
    /// The destinations not yet iterated over.
    pub fn as_slice(&self) -> &[Cell] {
        &self.cells[self.pos as usize..self.len as usize]
    }
    pub fn contains(&self, c: Cell) -> bool {
        self.as_slice().contains(&c)
    }
}

impl Iterator for PawnMoves {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> {
        if self.pos < self.len {
            self.pos += 1;
            Some(self.cells[self.pos as usize - 1])
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.len - self.pos) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for PawnMoves {}

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

/// Checks a board size against §3.1: odd N from 3 to 25.
pub fn validate_size(size: u8) -> Result<(), String> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!(
            "unacceptable size {size}: the board size must be from {MIN_SIZE} to {MAX_SIZE}"
        ));
    }
    if size.is_multiple_of(2) {
        return Err(format!(
            "unacceptable size {size}: protocheck uses odd board sizes only"
        ));
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
    pub fn new(size: u8, walls: u8) -> Result<Board, String> {
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
    pub fn with_default_walls(size: u8) -> Result<Board, String> {
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

    /// Every legal destination of the colour's pawn (§3.4); none after a win.
    pub fn legal_pawn_moves(&self, c: Colour) -> PawnMoves {
        let mut out = PawnMoves::empty();
        if self.winner().is_some() {
            return out;
        }
        let p = self.pawn(c);
        let q = self.pawn(c.opposite());
        for d in Direction::ALL {
            let Some(n) = self.neighbour(&self.edges, p, d) else {
                continue;
            };
            if n != q {
                out.push(n);
            } else if let Some(m) = self.neighbour(&self.edges, q, d) {
                out.push(m);
            } else {
                for e in d.perpendicular() {
                    if let Some(s) = self.neighbour(&self.edges, q, e) {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    /// Every wall the colour may place now, in [`Board::wall_slots`] order.
    /// Clears `out` first; empty after a win or without walls left.
    pub fn legal_walls(&self, c: Colour, out: &mut Vec<Wall>) {
        out.clear();
        self.for_each_legal_wall(c, |w| out.push(w));
    }

    /// Every legal action of the colour: pawn moves first, then walls.
    /// Clears `out` first.
    pub fn legal_actions(&self, c: Colour, out: &mut Vec<Action>) {
        out.clear();
        out.extend(self.legal_pawn_moves(c).map(Action::Step));
        self.for_each_legal_wall(c, |w| out.push(Action::Place(w)));
    }

    /// Calls `f` with every wall the colour may place now, in
    /// [`Board::wall_slots`] order, without allocating.
    pub fn for_each_legal_wall(&self, c: Colour, mut f: impl FnMut(Wall)) {
        if self.winner().is_some() || self.walls_left(c) == 0 {
            return;
        }
        // One current path per pawn. A wall that blocks no edge of that path
        // leaves the path intact, so only walls that cut it need a search.
        let mut marks = [Edges::default(); 2];
        for colour in Colour::ALL {
            if !self.mark_path(colour, &mut marks[colour.index()]) {
                return;
            }
        }
        for w in self.wall_slots() {
            if self.check_wall_geometry(w).is_err() {
                continue;
            }
            let cut = self.wall_edges(w);
            let mut tentative: Option<Edges> = None;
            let mut ok = true;
            for colour in Colour::ALL {
                let m = &marks[colour.index()];
                let touches = cut.iter().any(
                    |&(north, i)| {
                        if north { m.north.get(i) } else { m.east.get(i) }
                    },
                );
                if touches {
                    let edges = tentative.get_or_insert_with(|| self.edges_with(w));
                    if !self.reachable(edges, colour) {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                f(w);
            }
        }
    }

    /// The length of a shortest path from the colour's pawn to its goal row,
    /// counting orthogonal steps and ignoring both pawns (as the path rule
    /// does, §3.3). `Some(0)` on the goal row; `None` if walled off.
    pub fn shortest_path_len(&self, c: Colour) -> Option<u32> {
        self.bfs(&self.edges, c, None).map(|(_, d)| d)
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

    /// The index of a wall's centre, `None` for an anchor outside the legal
    /// range (row 1, last column, off the board).
    fn centre_index(&self, w: Wall) -> Option<usize> {
        let n = self.size;
        let a = w.anchor;
        if a.col + 1 >= n || a.row == 0 || a.row >= n {
            return None;
        }
        Some((a.row as usize - 1) * (n as usize - 1) + a.col as usize)
    }

    /// The two edges a (range-checked) wall blocks.
    fn wall_edges(&self, w: Wall) -> WallEdges {
        let a = w.anchor;
        match w.orientation {
            // Between rows a.row−1 and a.row: north edges of the cells below.
            Orientation::Horizontal => [
                (true, self.cell_index(Cell::new(a.col, a.row - 1))),
                (true, self.cell_index(Cell::new(a.col + 1, a.row - 1))),
            ],
            // Between columns a.col and a.col+1: east edges of the west cells.
            Orientation::Vertical => [
                (false, self.cell_index(Cell::new(a.col, a.row))),
                (false, self.cell_index(Cell::new(a.col, a.row - 1))),
            ],
        }
    }

    fn edges_with(&self, w: Wall) -> Edges {
        let mut e = self.edges;
        for (north, i) in self.wall_edges(w) {
            if north {
                e.north.set(i);
            } else {
                e.east.set(i);
            }
        }
        e
    }

    fn put_wall(&mut self, w: Wall) {
        let i = self.centre_index(w).expect("checked wall");
        match w.orientation {
            Orientation::Horizontal => self.horizontal.set(i),
            Orientation::Vertical => self.vertical.set(i),
        }
        self.edges = self.edges_with(w);
    }

    fn remove_wall(&mut self, w: Wall) {
        let i = self.centre_index(w).expect("placed wall");
        match w.orientation {
            Orientation::Horizontal => self.horizontal.clear(i),
            Orientation::Vertical => self.vertical.clear(i),
        }
        // Walls never share an edge, so these bits were this wall's alone.
        for (north, j) in self.wall_edges(w) {
            if north {
                self.edges.north.clear(j);
            } else {
                self.edges.east.clear(j);
            }
        }
    }

    /// The neighbour of an on-board cell in direction `d`, if it is on the
    /// board and the edge is not blocked in `edges`.
    #[inline]
    fn neighbour(&self, edges: &Edges, c: Cell, d: Direction) -> Option<Cell> {
        let n = self.size;
        let i = self.cell_index(c);
        match d {
            Direction::North => {
                (c.row + 1 < n && !edges.north.get(i)).then(|| Cell::new(c.col, c.row + 1))
            }
            Direction::South => {
                (c.row > 0 && !edges.north.get(i - n as usize)).then(|| Cell::new(c.col, c.row - 1))
            }
            Direction::East => {
                (c.col + 1 < n && !edges.east.get(i)).then(|| Cell::new(c.col + 1, c.row))
            }
            Direction::West => {
                (c.col > 0 && !edges.east.get(i - 1)).then(|| Cell::new(c.col - 1, c.row))
            }
        }
    }

    fn check_step(&self, c: Colour, dest: Cell) -> Result<(), Illegal> {
        if !self.on_board(dest) {
            return Err(Illegal::OffBoard);
        }
        let p = self.pawn(c);
        let q = self.pawn(c.opposite());
        if dest == p {
            return Err(Illegal::StayInPlace);
        }
        if dest == q {
            return Err(Illegal::Occupied);
        }
        let dc = i16::from(dest.col) - i16::from(p.col);
        let dr = i16::from(dest.row) - i16::from(p.row);
        let dir_of = |dc: i16, dr: i16| match (dc.signum(), dr.signum()) {
            (0, 1) => Direction::North,
            (0, -1) => Direction::South,
            (1, 0) => Direction::East,
            _ => Direction::West,
        };
        let e = &self.edges;
        match (dc.abs(), dr.abs()) {
            (1, 0) | (0, 1) => {
                let d = dir_of(dc, dr);
                match self.neighbour(e, p, d) {
                    Some(_) => Ok(()),
                    None => Err(Illegal::Blocked),
                }
            }
            (2, 0) | (0, 2) => {
                let d = dir_of(dc, dr);
                let mid = offset(p, d);
                if mid != Some(q) {
                    return Err(Illegal::NotAdjacent);
                }
                if self.neighbour(e, p, d).is_none() || self.neighbour(e, q, d).is_none() {
                    return Err(Illegal::JumpBlocked);
                }
                Ok(())
            }
            (1, 1) => {
                let horizontal = dir_of(dc, 0);
                let vertical = dir_of(0, dr);
                // Q is the cell the pawn faces; the side-step turns from it.
                let (d, side) = if offset(p, horizontal) == Some(q) {
                    (horizontal, vertical)
                } else if offset(p, vertical) == Some(q) {
                    (vertical, horizontal)
                } else {
                    return Err(Illegal::NotAdjacent);
                };
                if self.neighbour(e, p, d).is_none() {
                    return Err(Illegal::SideStepBlocked);
                }
                if self.neighbour(e, q, d).is_some() {
                    return Err(Illegal::SideStepNotAllowed);
                }
                if self.neighbour(e, q, side).is_none() {
                    return Err(Illegal::SideStepBlocked);
                }
                Ok(())
            }
            _ => Err(Illegal::NotAdjacent),
        }
    }

    /// Anchor range, overlap and crossing (§3.3), without supply or path.
    fn check_wall_geometry(&self, w: Wall) -> Result<(), Illegal> {
        let i = self.centre_index(w).ok_or(Illegal::WallOutOfRange)?;
        let (same, other) = match w.orientation {
            Orientation::Horizontal => (&self.horizontal, &self.vertical),
            Orientation::Vertical => (&self.vertical, &self.horizontal),
        };
        if same.get(i) {
            return Err(Illegal::WallOverlap);
        }
        if other.get(i) {
            return Err(Illegal::WallCrossing);
        }
        let a = w.anchor;
        let n = self.size;
        let overlap = match w.orientation {
            // Horizontal neighbours one column west or east share an edge.
            Orientation::Horizontal => {
                (a.col > 0 && same.get(i - 1)) || (a.col + 2 < n && same.get(i + 1))
            }
            // Vertical neighbours one row down or up share an edge.
            Orientation::Vertical => {
                let stride = n as usize - 1;
                (a.row > 1 && same.get(i - stride)) || (a.row + 1 < n && same.get(i + stride))
            }
        };
        if overlap {
            return Err(Illegal::WallOverlap);
        }
        Ok(())
    }

    fn check_wall(&self, c: Colour, w: Wall) -> Result<(), Illegal> {
        self.check_wall_geometry(w)?;
        if self.walls_left(c) == 0 {
            return Err(Illegal::NoWallsLeft);
        }
        let edges = self.edges_with(w);
        for colour in Colour::ALL {
            if !self.reachable(&edges, colour) {
                return Err(Illegal::PathBlocked(colour));
            }
        }
        Ok(())
    }

    /// Marks the edges of one shortest path of the colour's pawn to its goal
    /// row; `false` if there is none.
    fn mark_path(&self, c: Colour, marks: &mut Edges) -> bool {
        let mut parent = [u16::MAX; MAX_CELLS];
        let Some((goal, _)) = self.bfs(&self.edges, c, Some(&mut parent)) else {
            return false;
        };
        let mut i = goal;
        while parent[i] != u16::MAX {
            let j = parent[i] as usize;
            let (lo, hi) = (i.min(j), i.max(j));
            if hi - lo == 1 && self.cell_at(lo).row == self.cell_at(hi).row {
                marks.east.set(lo);
            } else {
                marks.north.set(lo);
            }
            i = j;
        }
        true
    }

    /// Whether the colour's pawn can reach its goal row over `edges`,
    /// ignoring pawns: the path rule's test (§3.3). A depth-first search that
    /// tries the goal direction first, so an open board costs about N steps.
    fn reachable(&self, edges: &Edges, c: Colour) -> bool {
        let n = self.size as usize;
        let goal = goal_row(self.size, c) as usize;
        let start = self.cell_index(self.pawn(c));
        if start / n == goal {
            return true;
        }
        let north_first = goal > start / n;
        let mut stack = [0u16; MAX_CELLS];
        let mut seen = Bits::default();
        seen.set(start);
        stack[0] = start as u16;
        let mut len = 1usize;
        while len > 0 {
            len -= 1;
            let i = stack[len] as usize;
            let (row, col) = (i / n, i % n);
            let north = (row + 1 < n && !edges.north.get(i)).then(|| i + n);
            let south = (row > 0 && !edges.north.get(i - n)).then(|| i - n);
            let east = (col + 1 < n && !edges.east.get(i)).then(|| i + 1);
            let west = (col > 0 && !edges.east.get(i - 1)).then(|| i - 1);
            // Pushed last is popped first: away, sideways, then towards.
            let (towards, away) = if north_first {
                (north, south)
            } else {
                (south, north)
            };
            for j in [away, west, east, towards].into_iter().flatten() {
                if seen.get(j) {
                    continue;
                }
                if j / n == goal {
                    return true;
                }
                seen.set(j);
                stack[len] = j as u16;
                len += 1;
            }
        }
        false
    }

    /// Breadth-first search from the colour's pawn to its goal row over
    /// `edges`, ignoring pawns. Returns the goal cell's index and the
    /// distance. Fills `parent` (`u16::MAX` for the start) when given.
    fn bfs(
        &self,
        edges: &Edges,
        c: Colour,
        mut parent: Option<&mut [u16; MAX_CELLS]>,
    ) -> Option<(usize, u32)> {
        let n = self.size as usize;
        let goal = goal_row(self.size, c) as usize;
        let start = self.cell_index(self.pawn(c));
        if start / n == goal {
            return Some((start, 0));
        }
        let mut queue = [0u16; MAX_CELLS];
        let mut seen = Bits::default();
        seen.set(start);
        queue[0] = start as u16;
        let (mut head, mut tail) = (0usize, 1usize);
        let mut dist = 0u32;
        while head < tail {
            dist += 1;
            let level_end = tail;
            while head < level_end {
                let i = queue[head] as usize;
                head += 1;
                let (row, col) = (i / n, i % n);
                let mut visit = |j: usize| -> bool {
                    if seen.get(j) {
                        return false;
                    }
                    seen.set(j);
                    if let Some(p) = parent.as_deref_mut() {
                        p[j] = i as u16;
                    }
                    queue[tail] = j as u16;
                    tail += 1;
                    j / n == goal
                };
                if row + 1 < n && !edges.north.get(i) && visit(i + n) {
                    return Some((i + n, dist));
                }
                if row > 0 && !edges.north.get(i - n) && visit(i - n) {
                    return Some((i - n, dist));
                }
                if col + 1 < n && !edges.east.get(i) && visit(i + 1) {
                    return Some((i + 1, dist));
                }
                if col > 0 && !edges.east.get(i - 1) && visit(i - 1) {
                    return Some((i - 1, dist));
                }
            }
        }
        None
    }
}

/// The cell one step from `c` in direction `d`, ignoring the board's far edges
/// (only underflow is excluded).
fn offset(c: Cell, d: Direction) -> Option<Cell> {
    match d {
        Direction::North => Some(Cell::new(c.col, c.row.checked_add(1)?)),
        Direction::South => Some(Cell::new(c.col, c.row.checked_sub(1)?)),
        Direction::East => Some(Cell::new(c.col.checked_add(1)?, c.row)),
        Direction::West => Some(Cell::new(c.col.checked_sub(1)?, c.row)),
    }
}
