//! The step-through of a scenario (a failing one, or a match game): the board (the pictures the
//! game's module drew) beside the transcript, one message at a time.

use super::{escape, svg};
use crate::outcome::{Direction, Frame, Picture, ScenarioResult, TranscriptLine};
use crate::verdict::Severity;
use std::fmt::Write;

/// The board beside the transcript, one figure per distinct picture
/// (consecutive lines that leave the game as it was share one); a note
/// without a picture of its own shows the one before it, any other line
/// without one shows no board.
pub(super) fn stepper(
    out: &mut String,
    index: usize,
    r: &ScenarioResult,
    finding_lines: &[Option<usize>],
) {
    let mut pictures: Vec<&Picture> = Vec::new();
    let mut frame_of_line: Vec<Option<usize>> = Vec::with_capacity(r.transcript.len());
    let no_frame = Frame::default();
    let mut shown: Option<usize> = None;
    for (i, line) in r.transcript.iter().enumerate() {
        let frame = r.frames.get(i).unwrap_or(&no_frame);
        match &frame.picture {
            Some(p) => {
                if pictures.last().is_none_or(|last| *last != p) {
                    pictures.push(p);
                }
                shown = Some(pictures.len() - 1);
            }
            // Notes (what protocheck observed, and what the transcript says
            // of lines it folded or left out) leave the game as it was.
            None if line.dir == Direction::Note => {}
            None => shown = None,
        }
        frame_of_line.push(shown);
    }
    // What all the pictures share from their start (the board, its places
    // and labels) is drawn once and used by each.
    let shared = match pictures.split_first() {
        Some((first, rest)) if !rest.is_empty() => rest.iter().fold(first.shapes.len(), |n, p| {
            if (p.width, p.height) != (first.width, first.height) {
                return 0;
            }
            n.min(
                first
                    .shapes
                    .iter()
                    .zip(&p.shapes)
                    .take_while(|(a, b)| a == b)
                    .count(),
            )
        }),
        _ => 0,
    };
    let ground_id = format!("ground-{index}");
    let ground = (shared > 0).then_some((ground_id.as_str(), shared));
    let stock = svg::Stock::of(&format!("shape-{index}"), &pictures, shared);
    let failing: Vec<usize> = finding_lines.iter().flatten().copied().collect();
    let start = failing.first().copied().unwrap_or(r.transcript.len() - 1);
    let _ = writeln!(
        out,
        "<div class=\"stepper\" data-start=\"{start}\" data-lines=\"{}\">",
        r.transcript.len()
    );
    out.push_str("<div class=\"board-pane\">\n<div class=\"controls\">");
    out.push_str(
        "<button type=\"button\" class=\"first\" title=\"first message\">« first</button>",
    );
    out.push_str(
        "<button type=\"button\" class=\"prev\" title=\"previous message (←)\">◀ prev</button>",
    );
    let _ = write!(
        out,
        "<span class=\"pos\">{} / {}</span>",
        start + 1,
        r.transcript.len()
    );
    out.push_str(
        "<button type=\"button\" class=\"next\" title=\"next message (→)\">next ▶</button>",
    );
    out.push_str("<button type=\"button\" class=\"last\" title=\"last message\">last »</button>");
    if !failing.is_empty() {
        out.push_str("<button type=\"button\" class=\"failing\" title=\"the failing message\">failing step</button>");
    }
    out.push_str("</div>\n<div class=\"boards\">\n");
    if pictures.is_empty() && r.frames.is_empty() {
        out.push_str("<p class=\"no-board\">No board: this game has no picture in the report yet; the transcript tells the game.</p>\n");
    } else if pictures.is_empty() {
        // Frames, none with a picture: the game failed before it was set up.
        out.push_str("<p class=\"no-board\">No board: the game is not set up at any message of this transcript; the transcript tells the game.</p>\n");
    } else {
        out.push_str(
            "<p class=\"no-board\" hidden>No board at this message: the game is not set up.</p>\n",
        );
    }
    if let (Some((id, n)), Some(first)) = (ground, pictures.first()) {
        out.push_str(&svg::ground(id, &first.shapes[..n]));
        out.push('\n');
    }
    if !stock.is_empty() {
        out.push_str(&stock.defs());
        out.push('\n');
    }
    for (k, p) in pictures.iter().enumerate() {
        let _ = write!(
            out,
            "<figure class=\"board\" data-frame=\"{k}\" hidden>{}",
            svg::render(p, ground, &stock)
        );
        if let Some(c) = &p.caption {
            let _ = write!(out, "<figcaption>{}</figcaption>", escape(c));
        }
        out.push_str("</figure>\n");
    }
    out.push_str("</div>\n</div>\n<ol class=\"transcript\">\n");
    for (i, line) in r.transcript.iter().enumerate() {
        let mut attrs = format!(
            " data-frame=\"{}\"",
            frame_of_line[i].map_or("none".to_string(), |k| k.to_string())
        );
        let rules: Vec<&str> = finding_lines
            .iter()
            .zip(&r.violations)
            .filter(|(l, _)| **l == Some(i))
            .map(|(_, v)| v.rule)
            .collect();
        if !rules.is_empty() {
            let worst = r
                .violations
                .iter()
                .zip(finding_lines)
                .filter(|(_, l)| **l == Some(i))
                .map(|(v, _)| v.severity)
                .max()
                .unwrap_or(Severity::Warn);
            let _ = write!(attrs, " data-finding=\"{}\"", worst.as_str());
        }
        transcript_line(out, line, &attrs);
        if !rules.is_empty() {
            // The marker goes inside the line it belongs to.
            out.truncate(out.len() - "</li>\n".len());
            for rule in rules {
                let _ = write!(out, " <span class=\"marker\">{}</span>", escape(rule));
            }
            out.push_str("</li>\n");
        }
    }
    out.push_str("</ol>\n</div>\n");
}

pub(super) fn transcript_line(out: &mut String, line: &TranscriptLine, attrs: &str) {
    let (class, arrow) = match line.dir {
        Direction::Sent => ("sent", "&gt;"),
        Direction::Received => ("received", "&lt;"),
        Direction::Note => ("note", "#"),
    };
    let _ = writeln!(
        out,
        "<li class=\"{class}\"{attrs}><span class=\"ms\">{}ms</span> <span class=\"dir\">{arrow}</span> <code>{}</code></li>",
        line.ms,
        escape(&line.text)
    );
}
