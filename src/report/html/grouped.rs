//! How the page shows a finding that several scenarios share (issue 19,
//! item 8): in full once, and elsewhere as a link to it.

use super::escape;
use crate::outcome::ScenarioResult;
use crate::verdict::Violation;
use std::fmt::Write;

/// Links to these scenarios' blocks, by name.
pub(super) fn links(scenarios: &[usize], results: &[ScenarioResult]) -> String {
    scenarios
        .iter()
        .map(|&i| format!("<a href=\"#scenario-{i}\">{}</a>", escape(&results[i].name)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A finding shown in full in an earlier scenario: its rule, where, and a
/// link to the full one.
pub(super) fn repeated_finding(
    out: &mut String,
    v: &Violation,
    line: Option<usize>,
    first: usize,
    results: &[ScenarioResult],
) {
    super::scenario::finding_head(out, v, line, "finding grouped");
    let _ = writeln!(
        out,
        "</div>\n<p class=\"same-as\">The same finding as {}, shown in full there.</p>\n</li>",
        links(&[first], results)
    );
}
