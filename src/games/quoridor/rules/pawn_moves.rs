//! Pawn moves: steps, jumps and side-steps (§3.4), generated into a fixed
//! buffer.

use super::*;

/// Legal pawn destinations, in a fixed buffer. Iterates over the cells.
#[derive(Clone, Copy, Debug)]
pub struct PawnMoves {
    cells: [Cell; MAX_PAWN_MOVES],
    len: u8,
    pos: u8,
}

impl PawnMoves {
    pub(super) fn empty() -> PawnMoves {
        PawnMoves {
            cells: [Cell::new(0, 0); MAX_PAWN_MOVES],
            len: 0,
            pos: 0,
        }
    }
    pub(super) fn push(&mut self, c: Cell) {
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

impl Board {
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

    /// The neighbour of an on-board cell in direction `d`, if it is on the
    /// board and the edge is not blocked in `edges`.
    #[inline]
    pub(super) fn neighbour(&self, edges: &Edges, c: Cell, d: Direction) -> Option<Cell> {
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

    pub(super) fn check_step(&self, c: Colour, dest: Cell) -> Result<(), Illegal> {
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
}
