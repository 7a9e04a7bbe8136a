//! Walls: where one may go (§3.3), the edges it blocks, and placing or
//! lifting it.

use super::*;

/// The edges one wall blocks: `(is_north_edge, cell_index)` twice.
pub(super) type WallEdges = [(bool, usize); 2];

impl Board {
    /// Every wall the colour may place now, in [`Board::wall_slots`] order.
    /// Clears `out` first; empty after a win or without walls left.
    pub fn legal_walls(&self, c: Colour, out: &mut Vec<Wall>) {
        out.clear();
        self.for_each_legal_wall(c, |w| out.push(w));
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

    /// The index of a wall's centre, `None` for an anchor outside the legal
    /// range (row 1, last column, off the board).
    pub(super) fn centre_index(&self, w: Wall) -> Option<usize> {
        let n = self.size;
        let a = w.anchor;
        if a.col + 1 >= n || a.row == 0 || a.row >= n {
            return None;
        }
        Some((a.row as usize - 1) * (n as usize - 1) + a.col as usize)
    }

    /// The two edges a (range-checked) wall blocks.
    pub(super) fn wall_edges(&self, w: Wall) -> WallEdges {
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

    pub(super) fn edges_with(&self, w: Wall) -> Edges {
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

    pub(super) fn put_wall(&mut self, w: Wall) {
        let i = self.centre_index(w).expect("checked wall");
        match w.orientation {
            Orientation::Horizontal => self.horizontal.set(i),
            Orientation::Vertical => self.vertical.set(i),
        }
        self.edges = self.edges_with(w);
    }

    pub(super) fn remove_wall(&mut self, w: Wall) {
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

    /// Anchor range, overlap and crossing (§3.3), without supply or path.
    pub(super) fn check_wall_geometry(&self, w: Wall) -> Result<(), Illegal> {
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

    pub(super) fn check_wall(&self, c: Colour, w: Wall) -> Result<(), Illegal> {
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
}
