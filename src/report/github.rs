//! GitHub Actions output: workflow commands that annotate a pull request
//! (`::error file=…,line=…,col=…,title=<rule>::…`), and the Markdown table
//! for the job's step summary (`$GITHUB_STEP_SUMMARY`). Pure functions of the
//! results, like the other reporters.
//!
//! An annotation gets a file position only when the finding belongs to a
//! step of a scenario file in the user's repository: built-in scenarios
//! live inside the binary and generated games in no file, so GitHub could
//! not place them on a line; they are annotated without a position.

use super::{RunInfo, user_file};
use crate::outcome::{ScenarioResult, Status, Totals};
use crate::verdict::{Severity, Violation};
use std::fmt::Write;

/// Workflow commands, one per line. `workspace` is `$GITHUB_WORKSPACE`:
/// paths under it are made relative, as GitHub expects.
pub fn render(results: &[ScenarioResult], workspace: Option<&str>) -> String {
    let mut out = String::new();
    for r in results {
        match r.status {
            Status::Error => {
                let message = r.error.as_deref().unwrap_or("the scenario could not run");
                let location = user_file(&r.source, workspace)
                    .map(|f| format!("file={}", property(&f)))
                    .unwrap_or_default();
                command(
                    &mut out,
                    "error",
                    &location,
                    "protocheck: scenario error",
                    &format!("{}: {message}", r.name),
                );
            }
            Status::Passed | Status::Failed => {
                for v in &r.violations {
                    annotate(&mut out, r, v, workspace);
                }
                for o in &r.omitted {
                    let kind = level(o.severity);
                    let message = format!(
                        "{}: {} more finding(s) of {} not listed (see the full report)",
                        r.name, o.count, o.rule
                    );
                    command(&mut out, kind, "", o.rule, &message);
                }
            }
            Status::Skipped | Status::Interrupted => {}
        }
    }
    out
}

fn annotate(out: &mut String, r: &ScenarioResult, v: &Violation, workspace: Option<&str>) {
    let location = v
        .step
        .as_ref()
        .and_then(|step| {
            let file = user_file(&step.file, workspace)?;
            Some(format!(
                "file={},line={},col={}",
                property(&file),
                step.line,
                step.column
            ))
        })
        .unwrap_or_default();
    let mut message = format!("{}: {}", r.name, v.message);
    if let (Some(expected), Some(actual)) = (&v.expected, &v.actual) {
        let _ = write!(message, "\nexpected: {expected}\nactual:   {actual}");
    }
    let _ = write!(message, "\nspec: {}", v.spec);
    command(out, level(v.severity), &location, v.rule, &message);
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Fail => "error",
        Severity::Warn => "warning",
    }
}

/// `::<kind> <properties>::<message>` with GitHub's escaping.
fn command(out: &mut String, kind: &str, location: &str, title: &str, message: &str) {
    let mut props = String::from(location);
    if !props.is_empty() {
        props.push(',');
    }
    props += &format!("title={}", property(title));
    let _ = writeln!(out, "::{kind} {props}::{}", data(message));
}

/// Escaping of a command's message (GitHub's `escapeData`).
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escaping of a property value (GitHub's `escapeProperty`).
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The Markdown for `$GITHUB_STEP_SUMMARY`: the totals, then one row per
/// scenario that did not simply pass, then the passing ones folded away.
pub fn step_summary(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let totals = Totals::of(results);
    let mut out = format!("### protocheck · {} · `{}`\n\n", info.game, cell(&info.bot));
    let _ = writeln!(
        out,
        "**{} passed, {} failed**{}{}{}{}\n",
        totals.passed,
        totals.failed,
        if totals.errors > 0 {
            format!(", {} scenario errors", totals.errors)
        } else {
            String::new()
        },
        if totals.skipped > 0 {
            format!(", {} skipped", totals.skipped)
        } else {
            String::new()
        },
        if totals.interrupted > 0 {
            format!(", {} interrupted", totals.interrupted)
        } else {
            String::new()
        },
        if totals.warnings > 0 {
            format!(", {} warnings", totals.warnings)
        } else {
            String::new()
        },
    );
    if let Some(score) = &info.score {
        let _ = writeln!(out, "**{}** ({})\n", score.line(), cell(&score.policy));
    }
    // Which layers confined the bots: a CI run's verdicts rest on them.
    let _ = writeln!(out, "{}\n", info.sandbox.line());
    if let Some((shard, of)) = &info.partition {
        let _ = writeln!(out, "Partition `{shard}` of {of} selected scenarios.\n");
    }
    let noteworthy: Vec<&ScenarioResult> = results
        .iter()
        .filter(|r| r.status != Status::Passed || r.warnings() > 0)
        .filter(|r| !matches!(r.status, Status::Skipped | Status::Interrupted))
        .collect();
    if !noteworthy.is_empty() {
        out += "| scenario | result | rule | finding |\n|---|---|---|---|\n";
        for r in noteworthy {
            let result = match r.status {
                Status::Failed => "❌ fail",
                Status::Error => "💥 error",
                _ => "⚠️ warn",
            };
            let first = r
                .violations
                .iter()
                .find(|v| v.severity == Severity::Fail)
                .or(r.violations.first());
            let (rule, finding) = match first {
                Some(v) => (format!("`{}`", v.rule), v.message.clone()),
                None => (String::new(), r.error.clone().unwrap_or_default()),
            };
            let _ = writeln!(
                out,
                "| `{}` | {result} | {rule} | {} |",
                cell(&r.name),
                cell(&finding)
            );
        }
        out.push('\n');
    }
    let passed: Vec<&str> = results
        .iter()
        .filter(|r| r.status == Status::Passed && r.warnings() == 0)
        .map(|r| r.name.as_str())
        .collect();
    if !passed.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>{} passed</summary>\n\n{}\n</details>\n",
            passed.len(),
            passed
                .iter()
                .map(|n| format!("`{}`", cell(n)))
                .collect::<Vec<_>>()
                .join(" · ")
        );
    }
    out
}

/// Text that stays inside one Markdown table cell.
fn cell(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let short: String = one_line.chars().take(200).collect();
    let short = if one_line.chars().count() > 200 {
        short + "…"
    } else {
        short
    };
    short.replace('|', "\\|").replace('`', "'")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::StepRef;
    use std::borrow::Cow;

    fn result(
        name: &str,
        source: &str,
        status: Status,
        violations: Vec<Violation>,
    ) -> ScenarioResult {
        ScenarioResult {
            violations,
            duration_ms: 3,
            ..ScenarioResult::new(name, "kalah", source, status)
        }
    }

    fn violation(severity: Severity, file: &str) -> Violation {
        Violation {
            rule: "kalah.move.empty-hole",
            severity,
            spec: Cow::Borrowed("A move must name a non-empty hole, 50%: really"),
            message: "MOVE;3 names an empty hole".into(),
            expected: Some("a non-empty hole".into()),
            actual: Some("MOVE;3".into()),
            step: Some(StepRef {
                file: file.into(),
                line: 12,
                column: 5,
                index: Some(3),
            }),
            board: None,
            timing: None,
        }
    }

    #[test]
    fn a_failure_in_a_user_file_is_placed_on_its_line() {
        let r = result(
            "my-case",
            "/ws/repo/tests/my.yaml",
            Status::Failed,
            vec![violation(Severity::Fail, "/ws/repo/tests/my.yaml")],
        );
        let text = render(&[r], Some("/ws/repo/"));
        assert_eq!(
            text,
            "::error file=tests/my.yaml,line=12,col=5,title=kalah.move.empty-hole::my-case: MOVE;3 names an empty hole%0Aexpected: a non-empty hole%0Aactual:   MOVE;3%0Aspec: A move must name a non-empty hole, 50%25: really\n"
        );
    }

    #[test]
    fn warnings_and_builtin_scenarios_are_annotated_without_a_position() {
        let r = result(
            "north-opening-3",
            "builtin:kalah/05.yaml",
            Status::Passed,
            vec![violation(Severity::Warn, "builtin:kalah/05.yaml")],
        );
        let text = render(&[r], None);
        assert!(
            text.starts_with("::warning title=kalah.move.empty-hole::north-opening-3: "),
            "{text}"
        );
    }

    #[test]
    fn properties_escape_colons_and_commas() {
        assert_eq!(property("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
        assert_eq!(user_file("./x.yaml", None).as_deref(), Some("x.yaml"));
        assert_eq!(user_file("builtin:kalah/x.yaml", None), None);
    }

    #[test]
    fn the_step_summary_lists_what_did_not_simply_pass() {
        let info = RunInfo {
            version: "0".into(),
            game: "kalah".into(),
            bot: "./bot | tee".into(),
            generated: None,
            strict: false,
            partition: Some(("hash:1/2".into(), 9)),
            workspace: None,
            environment: Default::default(),
            sandbox: crate::transport::sandbox::Layers::none("--sandbox off"),
            score: None,
            coverage: None,
        };
        let results = [
            result("ok-one", "builtin:a", Status::Passed, vec![]),
            result(
                "bad-one",
                "t.yaml",
                Status::Failed,
                vec![violation(Severity::Fail, "t.yaml")],
            ),
        ];
        let md = step_summary(&info, &results);
        assert!(md.contains("`./bot \\| tee`"), "{md}");
        assert!(md.contains("**1 passed, 1 failed**"), "{md}");
        assert!(md.contains("Partition `hash:1/2` of 9"), "{md}");
        assert!(md.contains("\nsandbox: none (--sandbox off)\n"), "{md}");
        assert!(
            md.contains(
                "| `bad-one` | ❌ fail | `kalah.move.empty-hole` | MOVE;3 names an empty hole |"
            ),
            "{md}"
        );
        assert!(md.contains("<summary>1 passed</summary>"), "{md}");
        assert!(!md.contains("score:"), "{md}");
        let scored = RunInfo {
            score: Some(crate::grading::score(
                &Default::default(),
                crate::grading::DEFAULT_SOURCE,
                &results,
                &[],
            )),
            ..info
        };
        let md = step_summary(&scored, &results);
        assert!(
            md.contains("**1 passed, 1 failed**\n\n**score: 1 / 2** (default: 1 point per scenario that passed)\n\nsandbox:"),
            "{md}"
        );
    }

    #[test]
    fn interrupted_scenarios_are_counted_but_not_annotated() {
        let info = RunInfo {
            version: "0".into(),
            game: "kalah".into(),
            bot: "./bot".into(),
            generated: None,
            strict: false,
            partition: None,
            workspace: None,
            environment: Default::default(),
            sandbox: crate::transport::sandbox::Layers::none("--sandbox off"),
            score: None,
            coverage: None,
        };
        let results = [
            result("ok-one", "builtin:a", Status::Passed, vec![]),
            result("cut", "builtin:b", Status::Interrupted, vec![]),
            result("later", "builtin:c", Status::Interrupted, vec![]),
        ];
        assert_eq!(render(&results, None), "");
        let md = step_summary(&info, &results);
        assert!(md.contains("**1 passed, 0 failed**, 2 interrupted"), "{md}");
        assert!(!md.contains("| `cut`"), "{md}");
    }
}
