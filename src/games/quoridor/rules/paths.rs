//! Paths to the goal row: the rule that no wall may cut a pawn off (§3.3)
//! and the shortest path the built-in opponent follows. Breadth-first
//! search over a fixed-size queue, allocation-free.

use super::*;

impl Board {
    /// The length of a shortest path from the colour's pawn to its goal row,
    /// counting orthogonal steps and ignoring both pawns (as the path rule
    /// does, §3.3). `Some(0)` on the goal row; `None` if walled off.
    pub fn shortest_path_len(&self, c: Colour) -> Option<u32> {
        self.bfs(&self.edges, c, None).map(|(_, d)| d)
    }

    /// Marks the edges of one shortest path of the colour's pawn to its goal
    /// row; `false` if there is none.
    pub(super) fn mark_path(&self, c: Colour, marks: &mut Edges) -> bool {
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
    pub(super) fn reachable(&self, edges: &Edges, c: Colour) -> bool {
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
    pub(super) fn bfs(
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
