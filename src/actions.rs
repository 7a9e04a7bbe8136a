//! Running inside GitHub Actions (`GITHUB_ACTIONS=true`): besides the
//! chosen report, annotations go to stderr (the runner reads workflow
//! commands there too, so `--format json|junit` on stdout stays clean), and
//! the Markdown summary is appended to `$GITHUB_STEP_SUMMARY`.
//! `--no-annotations` turns both off; `--format github` asks for the
//! annotations on stdout anywhere.

use crate::outcome::ScenarioResult;
use crate::report::{RunInfo, github};
use std::io::Write;

/// Whether this process runs as a GitHub Actions step.
pub fn on_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
}

/// The workspace paths of annotations are relative to.
pub fn workspace() -> Option<String> {
    std::env::var("GITHUB_WORKSPACE")
        .ok()
        .filter(|w| !w.is_empty())
}

/// Write what a GitHub Actions step gets beside the report. A summary that
/// cannot be written is a warning on stderr, not a failed run: the verdict
/// does not depend on it.
pub fn emit_extras(
    github_report: bool,
    no_annotations: bool,
    info: &RunInfo,
    results: &[ScenarioResult],
) {
    if no_annotations || !on_actions() {
        return;
    }
    if !github_report {
        let text = github::render(results, info.workspace.as_deref());
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
    }
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return;
    };
    let summary = github::step_summary(info, results);
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .and_then(|mut f| f.write_all(summary.as_bytes()));
    if let Err(e) = written {
        eprintln!(
            "protocheck: cannot append the step summary to {}: {e}",
            std::path::Path::new(&path).display()
        );
    }
}
