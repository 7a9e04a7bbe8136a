//! A game's [`Picture`] as inline SVG. The picture is a neutral drawing
//! made by the game's own module; every text in it is escaped here, like
//! everything else the report shows.

use super::escape;
use crate::outcome::{Ink, Picture, Shape};
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

/// `<svg>…</svg>`, scaled to the width of its pane by the stylesheet.
/// `ground`: the id of a group (see [`ground`]) that holds the picture's
/// first shapes, and how many they are; they are drawn by reference.
pub fn render(p: &Picture, ground: Option<(&str, usize)>) -> String {
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
    shapes(&mut out, p.shapes.get(skip..).unwrap_or_default());
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
    shapes(&mut out, shared);
    out.push_str("\n</g></defs></svg>");
    out
}

fn shapes(out: &mut String, shapes: &[Shape]) {
    for s in shapes {
        out.push('\n');
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
    }
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
        let svg = render(&p, None);
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(svg.contains("&lt;/svg&gt;&lt;script&gt;"), "{svg}");
        assert!(svg.contains(
            "<line x1=\"0\" y1=\"0\" x2=\"5\" y2=\"5\" stroke-width=\"2\" class=\"ink-wall\"/>"
        ));
        assert_eq!(svg.matches("<svg").count(), 1);
        // With the first shape in a shared group: only the line is drawn here.
        let svg = render(&p, Some(("g-1", 1)));
        assert!(svg.contains("<use href=\"#g-1\"/>"));
        assert!(!svg.contains("<text"));
        let shared = ground("g-1", &p.shapes[..1]);
        assert!(shared.contains("<g id=\"g-1\">"));
        assert!(shared.contains("&lt;/svg&gt;"));
    }
}
