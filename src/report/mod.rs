//! Reporters are pure functions of the results: same results, same text.
//! Nothing here runs anything or knows a game.

pub mod github;
pub mod group;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;

use crate::outcome::ScenarioResult;
use serde::Serialize;

/// What the report says about the run as a whole.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
    pub version: String,
    pub game: String,
    pub bot: String,
    /// `--games N --seed S`, when generated games were played.
    pub generated: Option<(usize, u64)>,
    pub strict: bool,
    /// `--partition`: this run is one shard (`hash:2/4`) of `selected`
    /// scenarios.
    pub partition: Option<(String, usize)>,
    /// The checkout the user's scenario paths are relative to on a CI
    /// runner (`$GITHUB_WORKSPACE`), for annotations.
    pub workspace: Option<String>,
    /// What the bots' environment left out of protocheck's, kept or set.
    pub environment: crate::transport::environment::EnvNote,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Junit,
    /// GitHub Actions workflow commands (annotations on the pull request).
    Github,
    /// One self-contained page: filters, and a step-through of every
    /// failing game with its board drawn at each message.
    Html,
}

/// The path of a scenario file in the user's checkout, or `None` for a
/// built-in or generated scenario.
pub(crate) fn user_file(source: &str, workspace: Option<&str>) -> Option<String> {
    if source.starts_with("builtin:") || source.starts_with("generated") || source.is_empty() {
        return None;
    }
    let relative = workspace
        .and_then(|w| source.strip_prefix(w.trim_end_matches('/')))
        .map(|rest| rest.trim_start_matches('/'))
        .unwrap_or(source);
    Some(relative.trim_start_matches("./").to_string())
}

/// Render a report in `format`.
pub fn render(
    format: Format,
    info: &RunInfo,
    results: &[ScenarioResult],
    opts: &human::Style,
) -> String {
    match format {
        Format::Human => human::render(info, results, opts),
        Format::Json => json::render(info, results),
        Format::Junit => junit::render(info, results),
        Format::Github => github::render(results, info.workspace.as_deref()),
        Format::Html => html::render(info, results),
    }
}

/// One warning for the whole report when the machine was so loaded that
/// protocheck stopped waiting for replies at its wall-time backstop before
/// the bots' own time reached the limit (`controller::timing`): those
/// verdicts say more about the machine than about the bots.
pub fn busy_machine_note(results: &[ScenarioResult]) -> Option<String> {
    let n = results
        .iter()
        .flat_map(|r| &r.violations)
        .filter(|v| {
            v.timing
                .is_some_and(|t| t.decided_by == crate::verdict::TimeFigure::Backstop)
        })
        .count();
    (n > 0).then(|| {
        format!(
            "warning: the machine was so busy that {n} repl{} judged by the wall-time backstop, not by the bot's own time: run fewer bots at once (a lower --jobs, or fewer runs side by side) and run again",
            if n == 1 { "y was" } else { "ies were" }
        )
    })
}

#[cfg(test)]
mod busy_machine_tests {
    use super::*;
    use crate::verdict::{ReplyTiming, RuleInfo, Severity, TimeFigure};

    static TIMEOUT: RuleInfo = RuleInfo {
        id: "io.timeout",
        severity: Severity::Fail,
        spec: "on time",
    };

    fn result_with(decided_by: TimeFigure) -> ScenarioResult {
        let mut result =
            ScenarioResult::new("s", "kalah", "s.yaml", crate::outcome::Status::Failed);
        result
            .violations
            .push(TIMEOUT.violation("late").with_timing(ReplyTiming {
                wall_ms: 10_000,
                own_ms: Some(900),
                limit_ms: 2_000,
                decided_by,
            }));
        result
    }

    #[test]
    fn only_a_backstop_decision_warns_and_it_warns_once() {
        assert_eq!(busy_machine_note(&[result_with(TimeFigure::OwnTime)]), None);
        let note = busy_machine_note(&[
            result_with(TimeFigure::Backstop),
            result_with(TimeFigure::Backstop),
        ])
        .expect("a note");
        assert!(
            note.contains("2 replies were judged by the wall-time backstop"),
            "{note}"
        );
        assert!(note.contains("--jobs"), "{note}");
    }
}
