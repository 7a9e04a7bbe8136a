//! How the page shows a finding that several scenarios share (issue 19,
//! item 8): in full once, and elsewhere as a link to it.

use super::escape;
use crate::outcome::ScenarioResult;
use crate::verdict::Violation;
use std::fmt::Write;

/// Links to these scenarios' blocks, by name.
/// `results` in page order; `suite_index`: each one's place in the suite,
/// which its block's id names.
pub(super) fn links(
    scenarios: &[usize],
    results: &[ScenarioResult],
    suite_index: &[usize],
) -> String {
    scenarios
        .iter()
        .map(|&i| {
            format!(
                "<a href=\"#scenario-{}\">{}</a>",
                suite_index[i],
                escape(&results[i].name)
            )
        })
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
    suite_index: &[usize],
) {
    super::scenario::finding_head(out, v, line, "finding grouped");
    let _ = writeln!(
        out,
        "</div>\n<p class=\"same-as\">The same finding as {}, shown in full there.</p>\n</li>",
        links(&[first], results, suite_index)
    );
}
