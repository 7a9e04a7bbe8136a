//! The tournament's page (`index.html`): the standings table and the rule
//! that ranks it, an SVG chart of each bot's points, a head-to-head table,
//! and every match with its result and links to its page and JSON.

use super::standings::{HeadToHead, Row};
use crate::report::html::escape;
use std::fmt::Write;

/// A match on the page: its number, bots, result and files.
#[derive(Clone)]
pub struct Linked {
    pub number: usize,
    pub first: String,
    pub second: String,
    /// The match's result in words ("A 2, B 0; 1 by forfeit").
    pub result: String,
    /// Its page and its JSON, relative to the index.
    pub page: String,
    pub json: String,
}

pub fn index(
    game: &str,
    sandbox: &crate::transport::sandbox::Layers,
    rows: &[Row],
    h2h: &HeadToHead,
    bots: &[String],
    matches: &[Linked],
) -> String {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>protocheck tournament · {game}</title>\n<style>\n\
         body {{ font-family: system-ui, sans-serif; margin: 2em; }}\n\
         table {{ border-collapse: collapse; }} td, th {{ padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; }}\n\
         td.n {{ text-align: right; }} td.self {{ background: #eee; }}\n</style>\n</head>\n<body>\n\
         <h1>protocheck tournament · {game}</h1>\n<p class=\"sandbox\">{sandbox}</p>\n<h2>Standings</h2>\n",
        game = escape(game),
        sandbox = escape(&sandbox.line()),
    );
    let elo = rows.iter().any(|r| r.elo.is_some());
    html += "<table class=\"standings\">\n<thead><tr><th>rank</th><th>bot</th><th>games</th><th>wins</th><th>draws</th>\
             <th>losses</th><th>forfeits</th><th>failures</th><th>warnings</th><th>points</th>";
    if elo {
        html += "<th>elo</th>";
    }
    html += "</tr></thead>\n<tbody>\n";
    for (i, r) in rows.iter().enumerate() {
        let _ = write!(
            html,
            "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td>",
            i + 1,
            escape(&r.bot),
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.forfeits,
            r.failures,
            r.warnings,
            r.points
        );
        if let Some(e) = r.elo {
            let _ = write!(html, "<td class=\"n\">{e:.0}</td>");
        }
        html += "</tr>\n";
    }
    html += "</tbody>\n</table>\n";
    html += "<p class=\"rule\">Ranked by points; bots with the same points by the points they \
             scored in the games between them, then wins, then fewer forfeits, then fewer other \
             failures, then name. A forfeit is a loss; failures are failing findings that forfeited \
             no game, warnings the findings at warning level.</p>\n";
    html += &chart(rows);
    html += &head_to_head(rows, h2h, bots);
    html += "<h2>Matches</h2>\n<table class=\"matches\">\n<thead><tr><th>match</th><th>first</th>\
             <th>second</th><th>result</th><th>files</th></tr></thead>\n<tbody>\n";
    for m in matches {
        let _ = writeln!(
            html,
            "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td><a href=\"{}\">page</a> · <a href=\"{}\">JSON</a></td></tr>",
            m.number,
            escape(&m.first),
            escape(&m.second),
            escape(&m.result),
            escape(&href(&m.page)),
            escape(&href(&m.json))
        );
    }
    html += "</tbody>\n</table>\n</body>\n</html>\n";
    html
}

/// A file's path as a link: the characters a URL gives a meaning of its
/// own (a bot given twice is `A#2`, and `#` would start a fragment) as
/// `%XX`.
fn href(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '%' | '#' | '?' | ' ' | '"' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Each bot (a row, in the order of the standings) against each other (a
/// column): the points it scored in the games between them, of how many.
fn head_to_head(rows: &[Row], h2h: &HeadToHead, bots: &[String]) -> String {
    let order: Vec<usize> = rows
        .iter()
        .filter_map(|r| bots.iter().position(|b| *b == r.bot))
        .collect();
    let mut html = String::from(
        "<h2>Head to head</h2>\n<p>Each row: the points that bot scored against the bot of \
         the column, of the games they played.</p>\n<table class=\"head-to-head\">\n<thead><tr><th></th>",
    );
    for &j in &order {
        let _ = write!(html, "<th>{}</th>", escape(&bots[j]));
    }
    html += "</tr></thead>\n<tbody>\n";
    for &i in &order {
        let _ = write!(html, "<tr><th>{}</th>", escape(&bots[i]));
        for &j in &order {
            if i == j {
                html += "<td class=\"self\"></td>";
                continue;
            }
            let games = h2h.games[i][j];
            if games == 0 {
                html += "<td class=\"n\">–</td>";
            } else {
                let _ = write!(
                    html,
                    "<td class=\"n\" data-bot=\"{}\" data-against=\"{}\">{} of {games}</td>",
                    escape(&bots[i]),
                    escape(&bots[j]),
                    h2h.points[i][j]
                );
            }
        }
        html += "</tr>\n";
    }
    html += "</tbody>\n</table>\n";
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
