//! The coverage table of the page: every rule of the game's catalogue and
//! every situation it declares, with its counts, and a link to the first
//! scenario of the run that checked or reached it.

use super::escape;
use crate::coverage::{RowKind, Summary};
use crate::outcome::ScenarioResult;
use std::fmt::Write;

/// `results` in the suite's order: a scenario's block id is `scenario-N`,
/// N its place in the suite.
pub(super) fn table(out: &mut String, summary: &Summary, results: &[ScenarioResult]) {
    let _ = writeln!(
        out,
        "<section id=\"coverage\"><details><summary>{}</summary>\n<table class=\"coverage\">\n\
         <thead><tr><th>rule or situation</th><th>checked</th><th>passed</th><th>broken</th><th>first reached in</th></tr></thead>\n<tbody>",
        escape(&summary.line(usize::MAX))
    );
    for row in &summary.rows {
        let first = results.iter().position(|r| match row.kind {
            RowKind::Rule => r
                .coverage
                .rules
                .get(row.id.as_str())
                .is_some_and(|t| t.checked > 0),
            RowKind::Situation => r
                .coverage
                .situations
                .get(row.id.as_str())
                .is_some_and(|n| *n > 0),
        });
        let link = match first {
            Some(i) => format!("<a href=\"#scenario-{i}\">{}</a>", escape(&results[i].name)),
            None => "never".to_string(),
        };
        let (passed, broken) = match row.kind {
            RowKind::Rule => (row.passed.to_string(), row.broken.to_string()),
            RowKind::Situation => ("situation".to_string(), String::new()),
        };
        let _ = writeln!(
            out,
            "<tr class=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{link}</td></tr>",
            if row.checked == 0 { "never" } else { "seen" },
            escape(&row.id),
            row.checked,
            passed,
            broken
        );
    }
    out.push_str("</tbody>\n</table></details></section>\n");
}
