//! The board as text, for human reports.

use super::*;

impl Board {
    /// A drawing for human reports. North's row is on top, read right to left
    /// (hole n..1), so that sowing runs counter-clockwise as on a real board;
    /// North's store is at the left end, South's at the right end, and every
    /// hole is labelled with its name (`N7`, `S1`):
    ///
    /// ```text
    ///            N7  N6  N5  N4  N3  N2  N1
    /// North     [ 7][ 7][ 7][ 7][ 7][ 7][ 7]
    /// N store 0                              1 S store
    /// South     [ 0][ 8][ 8][ 8][ 8][ 8][ 8]
    ///            S1  S2  S3  S4  S5  S6  S7
    /// ```
    ///
    /// The layout is stable (it is pinned by snapshots): column widths depend
    /// only on n and the largest numbers, lines have no trailing spaces, and
    /// there is no final newline.
    pub fn draw(&self) -> String {
        let n = self.holes();
        let width = |v: u32| v.to_string().len();
        let label_w = 1 + n.to_string().len();
        let max_hole = self
            .row(Side::North)
            .iter()
            .chain(self.row(Side::South))
            .copied();
        let cell_w = label_w.max(max_hole.map(width).max().unwrap_or(1));
        let store_w = width(self.store(Side::North));
        // "N store " + North's store + one space, then the rows begin.
        let indent = "N store ".len() + store_w + 1;

        let labels = |side: Side, order: &mut dyn Iterator<Item = usize>| {
            let mut line = " ".repeat(indent);
            for h in order {
                let label = format!("{}{}", side.letter(), h);
                line.push_str(&format!(" {label:>cell_w$} "));
            }
            line.trim_end().to_string()
        };
        let row = |name: &str, side: Side, order: &mut dyn Iterator<Item = usize>| {
            let mut line = format!("{name:<indent$}");
            for h in order {
                line.push_str(&format!("[{:>cell_w$}]", self.seeds_in(side, h)));
            }
            line
        };
        let stores = format!(
            "N store {:>store_w$}{}{} S store",
            self.store(Side::North),
            " ".repeat(1 + n * (cell_w + 2) + 1),
            self.store(Side::South),
        );
        [
            labels(Side::North, &mut (1..=n).rev()),
            row("North", Side::North, &mut (1..=n).rev()),
            stores,
            row("South", Side::South, &mut (1..=n)),
            labels(Side::South, &mut (1..=n)),
        ]
        .join("\n")
    }
}
