//! The class page, `index.html`: one self-contained file (inline style, a
//! few lines of script, no network) with the class table — sortable by
//! any column with the script, sorted by id without it — linking each
//! bot's report, and a bar chart (inline SVG) of how many bots break each
//! rule, and the class's scores (`scores`: a column and a histogram).
//! Every bot-supplied text is escaped.

use super::table::{Grades, Row};
use crate::report::html::escape;
use std::fmt::Write;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse}th,td{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:left}\
th{cursor:pointer;user-select:none}td.n{text-align:right;white-space:nowrap}\
ol.skips li{margin:.2em 0}.passed{color:#17692c}.failed{color:#b3261e}.error,.interrupted{color:#8a5a00}\
svg text{font:12px system-ui,sans-serif}code{font-size:13px}";

/// Clicking a header sorts by that column (numbers as numbers); again, the
/// other way round.
const SCRIPT: &str = "document.querySelectorAll('th').forEach((th,col)=>th.addEventListener('click',()=>{\
const body=th.closest('table').tBodies[0];const up=th.dataset.dir!=='up';th.dataset.dir=up?'up':'down';\
const key=r=>{const c=r.cells[col];const v=c.dataset.sort!==undefined?c.dataset.sort:c.textContent;const n=parseFloat(v);return isNaN(n)?v.toLowerCase():n};\
[...body.rows].sort((a,b)=>{const x=key(a),y=key(b);return (x<y?-1:x>y?1:0)*(up?1:-1)}).forEach(r=>body.appendChild(r))}));";

/// How many bots break each rule, most-broken first.
pub fn rule_counts(rows: &[Row]) -> Vec<(String, usize)> {
    counts_of(rows.iter().flat_map(|r| &r.rules))
}

/// How many bots are warned about each rule, most-warned first.
fn warning_counts(rows: &[Row]) -> Vec<(String, usize)> {
    counts_of(rows.iter().flat_map(|r| &r.warning_rules))
}

fn counts_of<'a>(rules: impl Iterator<Item = &'a String>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for rule in rules {
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
         <h1>Grades: {game}</h1>\n<p>{summary}</p>\n<p>Options: <code>{options}</code></p>\n\
         <p class=\"sandbox\">{sandbox}</p>\n",
        game = escape(game),
        summary = escape(&summary_line(rows)),
        sandbox = escape(&sandbox_line(rows)),
        options = escape(&grades.options.join(" ")),
    );
    if let Some(limit) = &grades.bot_time_limit {
        let _ = writeln!(
            page,
            "<p>Each bot's time limit: <code>--bot-time-limit {}</code> (a bot past it is graded on the scenarios it finished; the rest are not run)</p>",
            escape(limit)
        );
    }
    page += "<h2>Rules broken, by number of bots</h2>\n";
    page += &chart(&rule_counts(rows), rows.len(), Bars::Failures);
    page += "<h2>Warnings, by number of bots</h2>\n";
    page += &chart(&warning_counts(rows), rows.len(), Bars::Warnings);
    page += &super::scores::distribution(rows);
    page += &super::summary_coverage::table(grades);
    let reasons = skip_reasons(rows);
    page += "<h2>Class</h2>\n";
    page += &super::compare::line(grades);
    page += &class_table(rows, &reasons);
    page += &skip_notes(&reasons, rows);
    let _ = write!(page, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    page
}

fn summary_line(rows: &[Row]) -> String {
    let count = |status: &str| rows.iter().filter(|r| r.status == status).count();
    let mut line = format!(
        "{}: {} passed, {} failed",
        super::counted(rows.len(), "bot", "bots"),
        count("passed"),
        count("failed")
    );
    for (status, shown) in [("error", "errors"), ("interrupted", "interrupted")] {
        let n = count(status);
        if n > 0 {
            let shown = if n == 1 { status } else { shown };
            let _ = write!(line, ", {n} {shown}");
        }
    }
    let cut = rows.iter().filter(|r| r.not_run > 0).count();
    if cut > 0 {
        let _ = write!(
            line,
            "; {} cut by --bot-time-limit (graded on the scenarios they finished, the rest not run)",
            super::counted(cut, "bot", "bots")
        );
    }
    line
}

/// Which sandbox layers confined the class's bots, each as often as it
/// was used (a bot kept from an earlier grade may have run differently):
/// `sandbox: landlock v7 (files, tcp, signals), seccomp (scheduling) (every
/// bot)`.
fn sandbox_line(rows: &[Row]) -> String {
    let mut seen: Vec<(String, usize)> = Vec::new();
    for r in rows {
        let value = sandbox_cell(r);
        match seen.iter_mut().find(|(v, _)| *v == value) {
            Some((_, n)) => *n += 1,
            None => seen.push((value, 1)),
        }
    }
    if let [(value, _)] = seen.as_slice() {
        return format!("sandbox: {value} (every bot)");
    }
    let parts: Vec<String> = seen
        .iter()
        .map(|(value, n)| format!("{value} ({})", super::counted(*n, "bot", "bots")))
        .collect();
    format!("sandbox: {}", parts.join("; "))
}

/// A bot's sandbox as its report says, or that it has no report.
fn sandbox_cell(row: &Row) -> String {
    match &row.sandbox {
        Some(layers) => crate::report::sandbox_value(layers),
        None => "unknown (no report)".to_string(),
    }
}

/// Which findings a chart counts.
#[derive(Clone, Copy, PartialEq)]
enum Bars {
    Failures,
    Warnings,
}

/// Horizontal bars, one per rule, as long as the share of bots breaking it
/// (or warned about it).
fn chart(counts: &[(String, usize)], bots: usize, bars: Bars) -> String {
    let (none, verb, fill, class) = match bars {
        Bars::Failures => ("No bot breaks a rule.", "break", "#b3261e", "bar"),
        Bars::Warnings => (
            "No bot is warned about a rule.",
            "are warned about",
            "#c98a00",
            "bar warning",
        ),
    };
    if counts.is_empty() {
        return format!("<p>{none}</p>\n");
    }
    let (label_w, bar_w, row_h) = (330, 400, 22);
    let height = counts.len() * row_h + 10;
    let of_bots = super::counted(bots, "bot", "bots");
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"{}\" height=\"{height}\" viewBox=\"0 0 {} {height}\">\n\
         <title>How many of the {of_bots} {verb} each rule</title>\n",
        label_w + bar_w + 60,
        label_w + bar_w + 60,
    );
    for (i, (rule, n)) in counts.iter().enumerate() {
        let y = i * row_h + 5;
        let w = (bar_w * n).div_ceil(bots.max(1)).max(2);
        let rule = escape(rule);
        let _ = writeln!(
            svg,
            "<g class=\"{class}\" data-rule=\"{rule}\" data-bots=\"{n}\"><title>{rule}: {n} of {of_bots}</title>\
             <text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{rule}</text>\
             <rect x=\"{label_w}\" y=\"{y}\" width=\"{w}\" height=\"{bh}\" fill=\"{fill}\"/>\
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

/// Every distinct skip reason of the class, in first-seen order.
fn skip_reasons(rows: &[Row]) -> Vec<&str> {
    let mut reasons: Vec<&str> = Vec::new();
    for s in rows.iter().flat_map(|r| &r.skipped_because) {
        if !reasons.contains(&s.reason.as_str()) {
            reasons.push(&s.reason);
        }
    }
    reasons
}

fn class_table(rows: &[Row], reasons: &[&str]) -> String {
    let mut html = String::from(
        "<table>\n<thead><tr><th>id</th><th>status</th><th>score</th><th>passed</th><th>failed</th>\
         <th>warnings</th><th>skipped</th><th>first failing rule</th><th>warned about</th><th>seconds</th><th>sandbox</th>",
    );
    let compared = rows.iter().any(|r| r.compared.is_some());
    if compared {
        html += super::compare::HEADERS;
    }
    html += "</tr></thead>\n<tbody>\n";
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
        let warned = r
            .warning_rules
            .iter()
            .map(|rule| format!("<code>{}</code>", escape(rule)))
            .collect::<Vec<_>>()
            .join(" ");
        // The count, with the note that says why (numbered below).
        let mut skipped = r.skipped.to_string();
        for s in &r.skipped_because {
            if let Some(i) = reasons.iter().position(|known| *known == s.reason) {
                let _ = write!(
                    skipped,
                    " <a href=\"#skip-{n}\" title=\"{}: {}\">[{n}]</a>",
                    escape(&scenario_count(s.scenarios)),
                    escape(&s.reason),
                    n = i + 1
                );
            }
        }
        let _ = writeln!(
            html,
            "<tr><td>{id_cell}</td><td class=\"{status}\">{status}</td>{score}<td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\" data-sort=\"{}\">{skipped}</td><td>{detail}</td><td>{warned}</td><td class=\"n\">{:.1}</td><td>{}</td>{}</tr>",
            r.passed,
            r.failed,
            r.warnings,
            r.skipped,
            r.seconds,
            escape(&sandbox_cell(r)),
            if compared {
                super::compare::cells(r)
            } else {
                String::new()
            },
            status = escape(&r.status),
            score = super::scores::cell(r),
        );
    }
    html += "</tbody>\n</table>\n";
    html
}

fn scenario_count(n: usize) -> String {
    super::counted(n, "scenario", "scenarios")
}

/// Why scenarios were skipped: each reason once, numbered as the table's
/// notes, with the bots it concerns.
fn skip_notes(reasons: &[&str], rows: &[Row]) -> String {
    if reasons.is_empty() {
        return String::new();
    }
    let mut html = String::from("<h2>Why scenarios were skipped</h2>\n<ol class=\"skips\">\n");
    for (i, reason) in reasons.iter().enumerate() {
        let counts: Vec<usize> = rows
            .iter()
            .flat_map(|r| &r.skipped_because)
            .filter(|s| s.reason == *reason)
            .map(|s| s.scenarios)
            .collect();
        let (least, most) = (
            counts.iter().min().copied().unwrap_or(0),
            counts.iter().max().copied().unwrap_or(0),
        );
        let scenarios = if least == most {
            scenario_count(most)
        } else {
            format!("{least} to {most} scenarios")
        };
        let bots = if counts.len() == rows.len() {
            format!("every bot ({})", super::counted(rows.len(), "bot", "bots"))
        } else {
            format!(
                "{} of {}",
                counts.len(),
                super::counted(rows.len(), "bot", "bots")
            )
        };
        let _ = writeln!(
            html,
            "<li id=\"skip-{}\">{scenarios} skipped for {bots}: {}</li>",
            i + 1,
            escape(reason),
        );
    }
    html +=
        "</ol>\n<p>A skipped scenario was not run: it counts neither for nor against a bot.</p>\n";
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
#[path = "summary_tests.rs"]
mod tests;
