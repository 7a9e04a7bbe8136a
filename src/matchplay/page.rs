//! The tournament's page (`index.html`): the standings table, an SVG chart
//! of each bot's points, and a link to each match's own page.

use super::standings::Row;
use crate::report::html::escape;
use std::fmt::Write;

/// A match on the page: its title and the file of its page.
pub struct Linked {
    pub title: String,
    pub file: String,
}

pub fn index(game: &str, rows: &[Row], matches: &[Linked]) -> String {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>protocheck tournament · {game}</title>\n<style>\n\
         body {{ font-family: system-ui, sans-serif; margin: 2em; }}\n\
         table {{ border-collapse: collapse; }} td, th {{ padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; }}\n\
         td.n {{ text-align: right; }}\n</style>\n</head>\n<body>\n\
         <h1>protocheck tournament · {game}</h1>\n<h2>Standings</h2>\n",
        game = escape(game)
    );
    let elo = rows.iter().any(|r| r.elo.is_some());
    html += "<table>\n<thead><tr><th>rank</th><th>bot</th><th>games</th><th>wins</th><th>draws</th>\
             <th>losses</th><th>forfeits</th><th>points</th>";
    if elo {
        html += "<th>elo</th>";
    }
    html += "</tr></thead>\n<tbody>\n";
    for (i, r) in rows.iter().enumerate() {
        let _ = write!(
            html,
            "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            i + 1,
            escape(&r.bot),
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.forfeits,
            r.points
        );
        if let Some(e) = r.elo {
            let _ = write!(html, "<td class=\"n\">{e:.0}</td>");
        }
        html += "</tr>\n";
    }
    html += "</tbody>\n</table>\n";
    html += &chart(rows);
    html += "<h2>Matches</h2>\n<ol>\n";
    for m in matches {
        let _ = writeln!(
            html,
            "<li><a href=\"{}\">{}</a></li>",
            escape(&m.file),
            escape(&m.title)
        );
    }
    html += "</ol>\n</body>\n</html>\n";
    html
}

/// Horizontal bars, one per bot, as long as its share of the most points
/// any bot could have.
fn chart(rows: &[Row]) -> String {
    let most = rows.iter().map(|r| r.games).max().unwrap_or(0).max(1) as f64;
    let (label_w, bar_w, row_h) = (220, 400, 22);
    let height = rows.len() * row_h + 10;
    let width = label_w + bar_w + 60;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n\
         <title>Points of each bot</title>\n"
    );
    for (i, r) in rows.iter().enumerate() {
        let y = i * row_h + 5;
        let w = ((bar_w as f64 * r.points / most).round() as usize).max(2);
        let bot = escape(&r.bot);
        let _ = writeln!(
            svg,
            "<g class=\"bar\" data-bot=\"{bot}\" data-points=\"{p}\"><title>{bot}: {p} points of {g} games</title>\
             <text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{bot}</text>\
             <rect x=\"{label_w}\" y=\"{y}\" width=\"{w}\" height=\"{bh}\" fill=\"#1e63b3\"/>\
             <text x=\"{nx}\" y=\"{ty}\">{p}</text></g>",
            p = r.points,
            g = r.games,
            tx = label_w - 8,
            ty = y + 14,
            bh = row_h - 6,
            nx = label_w + w + 6,
        );
    }
    svg += "</svg>\n";
    svg
}
