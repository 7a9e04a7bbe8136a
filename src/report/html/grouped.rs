//! How the page points at a finding that several scenarios share (issue 19,
//! item 8): shown in full once, and elsewhere as a link to it (the link
//! here; the scenario's block, `scenario.rs`, writes the rest).

use super::escape;
use crate::outcome::ScenarioResult;

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
