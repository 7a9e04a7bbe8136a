//! A game's [`Picture`] as inline SVG. The picture is a neutral drawing
//! made by the game's own module; every text in it is escaped here, like
//! everything else the report shows.

use super::escape;
use crate::outcome::{Ink, Picture, Shape};
use std::collections::HashMap;
use std::fmt::Write;

/// The CSS class of an ink (the page's stylesheet gives the colours).
fn class(ink: Ink) -> &'static str {
    match ink {
        Ink::Board => "ink-board",
        Ink::Place => "ink-place",
        Ink::Marked => "ink-marked",
        Ink::Store => "ink-store",
        Ink::Wall => "ink-wall",
        Ink::First => "ink-first",
        Ink::Second => "ink-second",
        Ink::Count => "ink-count",
        Ink::Label => "ink-label",
        Ink::Named => "ink-named",
    }
}

/// How many bytes of pictures a step-through may write out in full before
/// its recurring shapes are written once and drawn by reference: a short
/// game stays plain SVG; a long one (a Dominion game that plays on after a
/// failure redraws 17 pile counts at every message) shrinks to a fraction.
pub const STOCK_FROM: usize = 32 * 1024;

/// The shapes that recur across a step-through's pictures, each written
/// once with an id and drawn by `<use>` wherever it stands.
#[derive(Default)]
pub struct Stock {
    ids: HashMap<String, String>,
}

impl Stock {
    /// The stock of `pictures` (their shapes after the first `skip`, which
    /// the ground draws), ids prefixed by `prefix`; empty when the pictures
    /// are small enough to write out (see [`STOCK_FROM`]).
    pub fn of(prefix: &str, pictures: &[&Picture], skip: usize) -> Stock {
        let mut counts: HashMap<String, usize> = HashMap::new();
        let mut bytes = 0;
        for p in pictures {
            for s in p.shapes.get(skip..).unwrap_or_default() {
                let text = shape(s);
                bytes += text.len();
                *counts.entry(text).or_default() += 1;
            }
        }
        if bytes < STOCK_FROM {
            return Stock::default();
        }
        let mut recurring: Vec<String> = counts
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(text, _)| text)
            .collect();
        // Ids in a stable order, so the same report is the same page.
        recurring.sort();
        let ids = recurring
            .into_iter()
            .enumerate()
            .map(|(n, text)| (text, format!("{prefix}-{n}")))
            .collect();
        Stock { ids }
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The stocked shapes, each with its id, in a hidden SVG's `<defs>`.
    pub fn defs(&self) -> String {
        let mut stocked: Vec<(&String, &String)> = self.ids.iter().collect();
        stocked.sort_by(|a, b| a.1.cmp(b.1));
        let mut out = String::from(
            "<svg class=\"stock\" xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>",
        );
        for (text, id) in stocked {
            // `<rect …`: the id goes right after the element's name.
            let name_end = text.find(' ').unwrap_or(text.len());
            let _ = write!(
                out,
                "\n{} id=\"{}\"{}",
                &text[..name_end],
                escape(id),
                &text[name_end..]
            );
        }
        out.push_str("\n</defs></svg>");
        out
    }
}

/// `<svg>…</svg>`, scaled to the width of its pane by the stylesheet.
/// `ground`: the id of a group (see [`ground`]) that holds the picture's
/// first shapes, and how many they are; they are drawn by reference, and so
/// is every shape in `stock`.
pub fn render(p: &Picture, ground: Option<(&str, usize)>, stock: &Stock) -> String {
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\">",
        w = p.width,
        h = p.height
    );
    let skip = match ground {
        Some((id, count)) => {
            let _ = write!(out, "\n<use href=\"#{}\"/>", escape(id));
            count
        }
        None => 0,
    };
    for s in p.shapes.get(skip..).unwrap_or_default() {
        let text = shape(s);
        out.push('\n');
        match stock.ids.get(&text) {
            Some(id) => {
                let _ = write!(out, "<use href=\"#{}\"/>", escape(id));
            }
            None => out.push_str(&text),
        }
    }
    out.push_str("\n</svg>");
    out
}

/// The shapes every step of a game shares, defined once as a group with
/// this id: an invisible SVG whose group the steps' pictures `<use>`.
pub fn ground(id: &str, shared: &[Shape]) -> String {
    let mut out = format!(
        "<svg class=\"ground\" xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs><g id=\"{}\">",
        escape(id)
    );
    for s in shared {
        out.push('\n');
        out.push_str(&shape(s));
    }
    out.push_str("\n</g></defs></svg>");
    out
}

/// One shape as an SVG element.
fn shape(s: &Shape) -> String {
    let mut out = String::new();
    match s {
        Shape::Rect {
            x,
            y,
            w,
            h,
            round,
            ink,
        } => {
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"{round}\" class=\"{}\"/>",
                class(*ink)
            );
        }
        Shape::Circle { x, y, r, ink } => {
            let _ = write!(
                out,
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" class=\"{}\"/>",
                class(*ink)
            );
        }
        Shape::Line {
            x1,
            y1,
            x2,
            y2,
            width,
            ink,
        } => {
            let _ = write!(
                out,
                "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke-width=\"{width}\" class=\"{}\"/>",
                class(*ink)
            );
        }
        Shape::Text {
            x,
            y,
            size,
            text,
            ink,
        } => {
            let _ = write!(
                out,
                "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" class=\"{}\">{}</text>",
                class(*ink),
                escape(text)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_in_a_picture_is_escaped() {
        let p = Picture {
            width: 10,
            height: 10,
            shapes: vec![
                Shape::Text {
                    x: 1,
                    y: 2,
                    size: 3,
                    text: "</svg><script>alert(1)</script>".into(),
                    ink: Ink::Label,
                },
                Shape::Line {
                    x1: 0,
                    y1: 0,
                    x2: 5,
                    y2: 5,
                    width: 2,
                    ink: Ink::Wall,
                },
            ],
            caption: None,
        };
        let svg = render(&p, None, &Stock::default());
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(svg.contains("&lt;/svg&gt;&lt;script&gt;"), "{svg}");
        assert!(svg.contains(
            "<line x1=\"0\" y1=\"0\" x2=\"5\" y2=\"5\" stroke-width=\"2\" class=\"ink-wall\"/>"
        ));
        assert_eq!(svg.matches("<svg").count(), 1);
        // With the first shape in a shared group: only the line is drawn here.
        let svg = render(&p, Some(("g-1", 1)), &Stock::default());
        assert!(svg.contains("<use href=\"#g-1\"/>"));
        assert!(!svg.contains("<text"));
        let shared = ground("g-1", &p.shapes[..1]);
        assert!(shared.contains("<g id=\"g-1\">"));
        assert!(shared.contains("&lt;/svg&gt;"));
    }

    /// `steps` pictures of a board with one label that never changes and a
    /// count that changes at every step (beyond the shared first shape).
    fn long_game(steps: usize) -> Vec<Picture> {
        (0..steps)
            .map(|k| Picture {
                width: 100,
                height: 100,
                shapes: vec![
                    Shape::Rect {
                        x: 0,
                        y: 0,
                        w: 100,
                        h: 100,
                        round: 0,
                        ink: Ink::Board,
                    },
                    Shape::Text {
                        x: 5,
                        y: 10,
                        size: 8,
                        text: "supply <copper>".into(),
                        ink: Ink::Label,
                    },
                    Shape::Text {
                        x: 5,
                        y: 20,
                        size: 8,
                        text: format!("{k}"),
                        ink: Ink::Count,
                    },
                ],
                caption: None,
            })
            .collect()
    }

    #[test]
    fn a_long_step_through_writes_a_recurring_shape_once_and_uses_it() {
        let pictures = long_game(3000);
        let refs: Vec<&Picture> = pictures.iter().collect();
        let stock = Stock::of("shape-7", &refs, 1);
        assert!(!stock.is_empty());
        let defs = stock.defs();
        // The label recurs: defined once, with its id, still escaped.
        assert_eq!(defs.matches("supply &lt;copper&gt;").count(), 1, "{defs}");
        assert!(
            defs.contains("<text id=\"shape-7-0\" x=\"5\" y=\"10\""),
            "{defs}"
        );
        // Each count stands once: written in place, not stocked.
        assert!(!defs.contains(">41<"), "{defs}");
        let svg = render(&pictures[41], Some(("ground-7", 1)), &stock);
        assert!(svg.contains("<use href=\"#shape-7-0\"/>"), "{svg}");
        assert!(!svg.contains("copper"), "{svg}");
        assert!(svg.contains(">41</text>"), "{svg}");
        // Smaller than writing every picture out.
        let plain: usize = pictures
            .iter()
            .map(|p| render(p, Some(("ground-7", 1)), &Stock::default()).len())
            .sum();
        let stocked: usize = defs.len()
            + pictures
                .iter()
                .map(|p| render(p, Some(("ground-7", 1)), &stock).len())
                .sum::<usize>();
        assert!(stocked < plain, "{stocked} >= {plain}");
    }

    #[test]
    fn a_short_step_through_stays_plain_svg() {
        let pictures = long_game(20);
        let refs: Vec<&Picture> = pictures.iter().collect();
        let stock = Stock::of("shape-1", &refs, 1);
        assert!(stock.is_empty());
        let svg = render(&pictures[3], None, &stock);
        assert!(svg.contains("supply &lt;copper&gt;</text>"), "{svg}");
        assert!(!svg.contains("shape-1"), "{svg}");
    }
}
