//! The class page, `index.html`: one self-contained file (inline style, a
//! few lines of script, no network) with the class table — sortable by
//! any column with the script, sorted by id without it — linking each
//! bot's report, and a bar chart (inline SVG) of how many bots break each
//! rule. Every bot-supplied text is escaped.

use super::table::{Grades, Row};
use crate::report::html::escape;
use std::fmt::Write;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse}th,td{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:left}\
th{cursor:pointer;user-select:none}td.n{text-align:right}\
.passed{color:#17692c}.failed{color:#b3261e}.error,.interrupted{color:#8a5a00}\
svg text{font:12px system-ui,sans-serif}code{font-size:13px}";

/// Clicking a header sorts by that column (numbers as numbers); again, the
/// other way round.
const SCRIPT: &str = "document.querySelectorAll('th').forEach((th,col)=>th.addEventListener('click',()=>{\
const body=th.closest('table').tBodies[0];const up=th.dataset.dir!=='up';th.dataset.dir=up?'up':'down';\
const key=r=>{const c=r.cells[col];const v=c.dataset.sort!==undefined?c.dataset.sort:c.textContent;const n=parseFloat(v);return isNaN(n)?v.toLowerCase():n};\
[...body.rows].sort((a,b)=>{const x=key(a),y=key(b);return (x<y?-1:x>y?1:0)*(up?1:-1)}).forEach(r=>body.appendChild(r))}));";

/// How many bots break each rule, most-broken first.
pub fn rule_counts(rows: &[Row]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for rule in rows.iter().flat_map(|r| &r.rules) {
        match counts.iter_mut().find(|(id, _)| id == rule) {
            Some((_, n)) => *n += 1,
            None => counts.push((rule.clone(), 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counts
}

pub fn render(grades: &Grades) -> String {
    let rows = &grades.bots;
    let game = grades.game.as_deref().unwrap_or("(as the scenarios say)");
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n\
         <title>protocheck grades: {game}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>Grades: {game}</h1>\n<p>{summary}</p>\n<p>Options: <code>{options}</code></p>\n",
        game = escape(game),
        summary = escape(&summary_line(rows)),
        options = escape(&grades.options.join(" ")),
    );
    page += "<h2>Rules broken, by number of bots</h2>\n";
    page += &chart(&rule_counts(rows), rows.len());
    page += "<h2>Class</h2>\n";
    page += &class_table(rows);
    let _ = write!(page, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    page
}

fn summary_line(rows: &[Row]) -> String {
    let count = |status: &str| rows.iter().filter(|r| r.status == status).count();
    let mut line = format!(
        "{} bots: {} passed, {} failed",
        rows.len(),
        count("passed"),
        count("failed")
    );
    for other in ["error", "interrupted"] {
        let n = count(other);
        if n > 0 {
            let _ = write!(line, ", {n} {other}");
        }
    }
    line
}

/// Horizontal bars, one per rule, as long as the share of bots breaking it.
fn chart(counts: &[(String, usize)], bots: usize) -> String {
    if counts.is_empty() {
        return "<p>No bot breaks a rule.</p>\n".into();
    }
    let (label_w, bar_w, row_h) = (330, 400, 22);
    let height = counts.len() * row_h + 10;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"{}\" height=\"{height}\" viewBox=\"0 0 {} {height}\">\n\
         <title>How many of the {bots} bots break each rule</title>\n",
        label_w + bar_w + 60,
        label_w + bar_w + 60,
    );
    for (i, (rule, n)) in counts.iter().enumerate() {
        let y = i * row_h + 5;
        let w = (bar_w * n).div_ceil(bots.max(1)).max(2);
        let rule = escape(rule);
        let _ = writeln!(
            svg,
            "<g class=\"bar\" data-rule=\"{rule}\" data-bots=\"{n}\"><title>{rule}: {n} of {bots} bots</title>\
             <text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{rule}</text>\
             <rect x=\"{label_w}\" y=\"{y}\" width=\"{w}\" height=\"{bh}\" fill=\"#b3261e\"/>\
             <text x=\"{nx}\" y=\"{ty}\">{n}</text></g>",
            tx = label_w - 8,
            ty = y + 14,
            bh = row_h - 6,
            nx = label_w + w + 6,
        );
    }
    svg += "</svg>\n";
    svg
}

fn class_table(rows: &[Row]) -> String {
    let mut html = String::from(
        "<table>\n<thead><tr><th>id</th><th>status</th><th>passed</th><th>failed</th>\
         <th>warnings</th><th>skipped</th><th>first failing rule</th><th>seconds</th></tr></thead>\n<tbody>\n",
    );
    for r in rows {
        let id = escape(&r.id);
        let id_cell = if r.report.is_empty() {
            id
        } else {
            format!("<a href=\"{}\">{id}</a>", escape(&url_path(&r.report)))
        };
        let detail = match (&r.first_failing_rule, &r.note) {
            (Some(rule), _) => format!("<code>{}</code>", escape(rule)),
            (None, Some(note)) => escape(note),
            _ => String::new(),
        };
        let _ = writeln!(
            html,
            "<tr><td>{id_cell}</td><td class=\"{status}\">{status}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td>{detail}</td><td class=\"n\">{:.1}</td></tr>",
            r.passed,
            r.failed,
            r.warnings,
            r.skipped,
            r.seconds,
            status = escape(&r.status),
        );
    }
    html += "</tbody>\n</table>\n";
    html
}

/// A relative link to a file under the output folder, each path segment
/// percent-encoded (ids may hold `#`, `?`, `%` or spaces).
fn url_path(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            segment
                .bytes()
                .map(|b| {
                    if b.is_ascii_alphanumeric() || b"-._~@".contains(&b) {
                        (b as char).to_string()
                    } else {
                        format!("%{b:02X}")
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, status: &str, rules: &[&str]) -> Row {
        Row {
            id: id.into(),
            status: status.into(),
            passed: 1,
            failed: rules.len(),
            warnings: 0,
            skipped: 0,
            first_failing_rule: rules.first().map(|r| r.to_string()),
            seconds: 1.0,
            report: format!("{id}/report.html"),
            note: None,
            rules: rules.iter().map(|r| r.to_string()).collect(),
        }
    }

    #[test]
    fn the_chart_counts_bots_per_rule_most_broken_first() {
        let rows = [
            row("a", "failed", &["k.x", "k.y"]),
            row("b", "failed", &["k.y"]),
            row("c", "passed", &[]),
        ];
        assert_eq!(
            rule_counts(&rows),
            [("k.y".to_string(), 2), ("k.x".to_string(), 1)]
        );
        let page = render(&Grades {
            protocheck: "0".into(),
            game: Some("kalah".into()),
            options: vec![],
            partition: None,
            bots: rows.to_vec(),
        });
        assert!(page.contains("data-rule=\"k.y\" data-bots=\"2\""), "{page}");
        assert!(page.contains("data-rule=\"k.x\" data-bots=\"1\""), "{page}");
        assert!(page.contains("3 bots: 1 passed, 2 failed"));
    }

    #[test]
    fn ids_are_escaped_in_text_and_encoded_in_links() {
        let page = render(&Grades {
            protocheck: "0".into(),
            game: None,
            options: vec![],
            partition: None,
            bots: vec![row("<b>&#1", "passed", &[])],
        });
        assert!(
            page.contains("<a href=\"%3Cb%3E%26%231/report.html\">&lt;b&gt;&amp;#1</a>"),
            "{page}"
        );
        assert!(!page.contains("<b>&#1"));
    }
}
