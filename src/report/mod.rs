//! Reporters are pure functions of the results: same results, same text.
//! Nothing here runs anything or knows a game.

pub mod feedback;
pub mod github;
pub mod gradescope;
pub mod group;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod prairielearn;
pub mod request;
pub mod schema;
pub mod stdout;

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
    /// Which sandbox layers confined the bots: settled once for the run
    /// (`transport::sandbox::settle`), so no reporter asks the kernel.
    pub sandbox: crate::transport::sandbox::Layers,
    /// The run's score under its grading policy (`None`: not scored, e.g.
    /// a match's games).
    pub score: Option<crate::grading::Score>,
    /// What the run exercised, measured against what its game declares
    /// (`crate::coverage`; `None`: not measured, e.g. a match's games).
    pub coverage: Option<crate::coverage::Summary>,
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
    /// Gradescope's autograder results.json.
    Gradescope,
    /// PrairieLearn's external grader results.json.
    Prairielearn,
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

/// The sandbox line without its `sandbox: `, for a field or column that is
/// itself named sandbox: `landlock v7 (files, tcp, signals), seccomp
/// (scheduling)`, `none (--sandbox off)`.
pub fn sandbox_value(layers: &crate::transport::sandbox::Layers) -> String {
    let line = layers.line();
    match line.strip_prefix("sandbox: ") {
        Some(value) => value.to_string(),
        None => line,
    }
}

/// The layers of a report written before protocheck recorded them: such a
/// run had no sandbox, and a grade kept from it must say so.
pub fn sandbox_not_recorded() -> crate::transport::sandbox::Layers {
    crate::transport::sandbox::Layers::none(
        "not recorded: the report predates protocheck's sandbox",
    )
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
        Format::Gradescope => gradescope::render(info, results),
        Format::Prairielearn => prairielearn::render(info, results),
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

#[cfg(test)]
mod sandbox_tests {
    use super::*;
    use crate::outcome::Status;
    use crate::transport::sandbox::Layers;

    fn info(sandbox: Layers) -> RunInfo {
        RunInfo {
            version: "0".into(),
            game: "kalah".into(),
            bot: "./bot".into(),
            generated: None,
            strict: false,
            partition: None,
            workspace: None,
            environment: Default::default(),
            sandbox,
            score: None,
            coverage: None,
        }
    }

    fn all_layers() -> Layers {
        Layers {
            landlock: Some(7),
            files: true,
            tcp: true,
            signals: true,
            scheduling: true,
            none_because: None,
        }
    }

    /// Three scenarios of two games: one line, one property per suite.
    fn results() -> Vec<ScenarioResult> {
        vec![
            ScenarioResult::new("a", "kalah", "a.yaml", Status::Passed),
            ScenarioResult::new("b", "kalah", "b.yaml", Status::Skipped),
            ScenarioResult::new("c", "quoridor", "c.yaml", Status::Passed),
        ]
    }

    #[test]
    fn the_human_report_says_the_sandbox_once_above_the_summary_also_when_quiet() {
        for quiet in [false, true] {
            let style = human::Style {
                quiet,
                ..human::Style::default()
            };
            let off = human::render(&info(Layers::none("--sandbox off")), &results(), &style);
            let lines: Vec<&str> = off.lines().collect();
            assert_eq!(
                lines.iter().filter(|l| l.contains("sandbox")).count(),
                1,
                "{off}"
            );
            assert_eq!(
                lines[lines.len() - 2..],
                [
                    "sandbox: none (--sandbox off)",
                    "2 passed, 0 failed, 1 skipped"
                ],
                "{off}"
            );
            let on = human::render(&info(all_layers()), &results(), &style);
            assert!(
                on.contains("\nsandbox: landlock v7 (files, tcp, signals), seccomp (scheduling)\n"),
                "{on}"
            );
        }
    }

    #[test]
    fn a_run_with_sandbox_off_says_none_in_every_format() {
        use crate::transport::sandbox::{Mode, SandboxOptions, settle};
        let off = settle(&SandboxOptions {
            mode: Mode::Off,
            ..SandboxOptions::default()
        })
        .expect("off always runs");
        let info = info(off);
        let human = human::render(&info, &results(), &human::Style::default());
        assert!(
            human.contains("\nsandbox: none (--sandbox off)\n"),
            "{human}"
        );
        let json: serde_json::Value =
            serde_json::from_str(&json::render(&info, &results())).unwrap();
        assert_eq!(json["sandbox"]["none_because"], "--sandbox off");
        for layer in ["files", "tcp", "signals", "scheduling"] {
            assert_eq!(json["sandbox"][layer], false, "{layer}");
        }
        assert!(
            junit::render(&info, &results())
                .contains("<property name=\"sandbox\" value=\"none (--sandbox off)\"/>")
        );
        assert!(html::render(&info, &results()).contains("<dd>none (--sandbox off)</dd>"));
    }

    #[test]
    fn the_json_report_carries_the_layers_as_an_object() {
        for layers in [all_layers(), Layers::none("macOS")] {
            let text = json::render(&info(layers.clone()), &results());
            let report: serde_json::Value = serde_json::from_str(&text).unwrap();
            let read: Layers = serde_json::from_value(report["sandbox"].clone()).unwrap();
            assert_eq!(read, layers, "{text}");
        }
        let text = json::render(&info(Layers::none("--sandbox off")), &results());
        let report: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(report["sandbox"]["none_because"], "--sandbox off");
        assert_eq!(report["sandbox"]["files"], false);
    }

    #[test]
    fn every_junit_testsuite_has_a_sandbox_property() {
        let text = junit::render(&info(all_layers()), &results());
        assert_eq!(text.matches("<testsuite ").count(), 2, "{text}");
        assert_eq!(
            text.matches("<property name=\"sandbox\" value=\"landlock v7 (files, tcp, signals), seccomp (scheduling)\"/>")
                .count(),
            2,
            "{text}"
        );
        let off = junit::render(&info(Layers::none("--sandbox off")), &results());
        assert!(
            off.contains("<property name=\"sandbox\" value=\"none (--sandbox off)\"/>"),
            "{off}"
        );
    }

    #[test]
    fn the_html_header_names_the_layers() {
        let page = html::render(&info(Layers::none("--sandbox off")), &results());
        let header = &page[..page.find("</header>").expect("a header")];
        assert!(
            header.contains(
                "<div class=\"sandbox\"><dt>sandbox</dt><dd>none (--sandbox off)</dd></div>"
            ),
            "{header}"
        );
        let page = html::render(&info(all_layers()), &results());
        assert!(
            page.contains("<dd>landlock v7 (files, tcp, signals), seccomp (scheduling)</dd>"),
            "{page}"
        );
    }
}
