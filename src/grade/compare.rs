//! `grade --compare OLD_DIR`: each bot beside its grade in an earlier
//! grade's output folder, read from its report there
//! (`OLD_DIR/<id>/report.json`, through `report::json`): the previous
//! score and the rules it fixed or newly broke. A bot without a report
//! there is new. Shown on the class page and in grades.csv/grades.json.

use super::table::{self, Compared, Grades, Row};
use crate::grading::show;
use crate::outcome::{ScenarioResult, Status};
use crate::report::html::escape;
use crate::report::json::Report;
use crate::verdict::Severity;
use std::fmt::Write;
use std::path::Path;

/// `old` must be a folder, and not the output folder (whose reports this
/// grade replaces while it runs).
pub fn check(old: &Path, given: &Path, out: &Path) -> Result<(), CompareError> {
    if !old.is_dir() {
        return Err(CompareError::NotAFolder(given.to_path_buf()));
    }
    let same = match (old.canonicalize(), out.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(CompareError::IsTheOutput(given.to_path_buf()));
    }
    Ok(())
}

/// Why `--compare` cannot name that folder.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error(
        "--compare {}: not a folder (give the output folder of an earlier grade)",
        .0.display()
    )]
    NotAFolder(std::path::PathBuf),
    #[error(
        "--compare {} is the output folder, whose reports this grade replaces: copy it first, or grade into another --out",
        .0.display()
    )]
    IsTheOutput(std::path::PathBuf),
}

/// Every row beside its bot's report in `old`, its report now read from
/// `out` (the rules it kept are known only from there).
pub fn compare_all(rows: &mut [Row], old: &Path, out: &Path) {
    for row in rows {
        let before = table::read_report(&old.join(&row.id));
        let now = table::read_report(&out.join(&row.id));
        row.compared = Some(compared(row, before.as_ref(), now.as_ref()));
    }
}

/// The row beside the bot's earlier report (`None`: it had none), `now` its
/// report in this grade. Rules are compared only when the bot has a
/// verdict now: a bot without one (no report) fixed nothing. A rule broken
/// then is fixed only when this run reached it and the bot kept it: a
/// check of it ran and held, or a scenario that broke it then passed now.
/// A rule this run never reached (its scenario skipped or not run, the bot
/// gone before) is not fixed, only not seen.
pub fn compared(row: &Row, before: Option<&Report>, now: Option<&Report>) -> Compared {
    let Some(before) = before else {
        return Compared {
            new: true,
            previous_score: None,
            previous_max_score: None,
            fixed_rules: Vec::new(),
            newly_broken_rules: Vec::new(),
        };
    };
    let broken_then = table::rules_of_severity(&before.scenarios, Severity::Fail);
    let verdict = matches!(row.status.as_str(), "passed" | "failed");
    let fixed_rules = match now {
        Some(now) if verdict => broken_then
            .iter()
            .filter(|r| !row.rules.contains(r) && kept(r, before, now))
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    let newly_broken_rules = match verdict {
        true => row
            .rules
            .iter()
            .filter(|r| !broken_then.contains(r))
            .cloned()
            .collect(),
        false => Vec::new(),
    };
    Compared {
        new: false,
        previous_score: before.score,
        previous_max_score: before.max_score,
        fixed_rules,
        newly_broken_rules,
    }
}

/// Whether the run `now` checked `rule` and the bot kept it: a check of it
/// held, or a scenario that broke it `before` (by name) passed.
fn kept(rule: &str, before: &Report, now: &Report) -> bool {
    let broke_it = |s: &ScenarioResult| {
        let found = s.violations.iter().map(|v| (v.rule, v.severity));
        let counted = s.omitted.iter().map(|o| (o.rule, o.severity));
        found
            .chain(counted)
            .any(|(r, severity)| r == rule && severity == Severity::Fail)
    };
    let broken_in: Vec<&str> = before
        .scenarios
        .iter()
        .filter(|s| broke_it(s))
        .map(|s| s.name.as_str())
        .collect();
    now.scenarios.iter().any(|s| {
        s.coverage.rules.get(rule).is_some_and(|t| t.passed > 0)
            || (s.status == Status::Passed && broken_in.contains(&s.name.as_str()))
    })
}

/// The score gained since (negative: lost), when both are known.
fn gained(row: &Row) -> Option<f64> {
    let c = row.compared.as_ref()?;
    Some(row.score? - c.previous_score?)
}

/// The line above the class table: what the class was compared with, and
/// how many bots gained, lost or kept their score, and are new.
pub fn line(grades: &Grades) -> String {
    let Some(old) = &grades.compared_with else {
        return String::new();
    };
    let rows: Vec<&Row> = grades
        .bots
        .iter()
        .filter(|r| r.compared.is_some())
        .collect();
    let count = |keep: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| keep(r)).count();
    let new = count(&|r| r.compared.as_ref().is_some_and(|c| c.new));
    let up = count(&|r| gained(r).is_some_and(|g| g > 0.0));
    let down = count(&|r| gained(r).is_some_and(|g| g < 0.0));
    let same = count(&|r| gained(r) == Some(0.0));
    let unscored = rows.len() - new - up - down - same;
    let mut parts = vec![
        format!("{up} scored higher"),
        format!("{down} lower"),
        format!("{same} the same"),
        format!("{new} new (no report there)"),
    ];
    if unscored > 0 {
        parts.push(format!("{unscored} without a score now or then"));
    }
    format!(
        "<p class=\"compared\">Compared with the grades in <code>{}</code>: {}</p>\n",
        escape(old),
        parts.join(", ")
    )
}

/// The columns the class table gains.
pub const HEADERS: &str = "<th>previous score</th><th>since then</th>";

/// A row's cells: its previous score (a new bot sorts below every score),
/// and what changed: the points gained and the rules fixed and newly
/// broken (sorted by the points gained).
pub fn cells(row: &Row) -> String {
    let Some(c) = &row.compared else {
        return "<td></td><td></td>".to_string();
    };
    if c.new {
        return "<td class=\"n new\" data-sort=\"-1\">new</td><td data-sort=\"0\"></td>"
            .to_string();
    }
    let previous = match (c.previous_score, c.previous_max_score) {
        (Some(score), Some(max)) => format!(
            "<td class=\"n\" data-sort=\"{}\">{} / {}</td>",
            show(score),
            show(score),
            show(max)
        ),
        _ => "<td class=\"n\" data-sort=\"-1\">—</td>".to_string(),
    };
    let gained = gained(row);
    let mut change = Vec::new();
    if let Some(g) = gained {
        change.push(match g {
            g if g > 0.0 => format!("+{}", show(g)),
            g if g < 0.0 => format!("−{}", show(-g)),
            _ => "±0".to_string(),
        });
    }
    let rules = |rules: &[String]| {
        rules
            .iter()
            .map(|r| format!("<code>{}</code>", escape(r)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if !c.fixed_rules.is_empty() {
        change.push(format!("fixed {}", rules(&c.fixed_rules)));
    }
    if !c.newly_broken_rules.is_empty() {
        change.push(format!("newly broken {}", rules(&c.newly_broken_rules)));
    }
    let mut html = previous;
    let _ = write!(
        html,
        "<td data-sort=\"{}\">{}</td>",
        show(gained.unwrap_or(0.0)),
        change.join(" · ")
    );
    html
}

#[cfg(test)]
mod tests {
    #[test]
    fn compare_errors_read_as_before() {
        let e = super::check(
            std::path::Path::new("/no/such/protocheck/old"),
            std::path::Path::new("old"),
            std::path::Path::new("out"),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "--compare old: not a folder (give the output folder of an earlier grade)"
        );
    }

    use super::*;
    use crate::outcome::{ScenarioResult, Status};

    /// A failing scenario `name` that broke `rule`.
    fn broke(name: &str, rule: &'static str) -> ScenarioResult {
        let mut r = ScenarioResult::new(name, "kalah", "s.yaml", Status::Failed);
        let info: &'static crate::verdict::RuleInfo =
            Box::leak(Box::new(crate::verdict::RuleInfo {
                id: rule,
                severity: Severity::Fail,
                spec: "",
            }));
        r.violations.push(info.violation("m"));
        r
    }

    /// The report of `results`, read back as `grade` reads it.
    fn report_of(results: &[ScenarioResult], score: f64) -> Report<'static> {
        let json = crate::report::json::render(&info(), results);
        let mut report = crate::report::json::read(&json).unwrap();
        report.score = Some(score);
        report.max_score = Some(10.0);
        report
    }

    /// A report whose scenarios (each named by its rule) broke `rules`,
    /// scored `score` of 10.
    fn report(rules: &[&'static str], score: f64) -> Report<'static> {
        let results: Vec<ScenarioResult> = rules.iter().map(|rule| broke(rule, rule)).collect();
        report_of(&results, score)
    }

    fn info() -> crate::report::RunInfo {
        crate::report::RunInfo {
            version: "0".into(),
            game: "kalah".into(),
            bot: "./bot".into(),
            generated: None,
            strict: false,
            partition: None,
            workspace: None,
            environment: Default::default(),
            sandbox: crate::report::sandbox_not_recorded(),
            score: None,
            coverage: None,
        }
    }

    fn now(status: &str, rules: &[&str], score: Option<f64>) -> Row {
        let mut row = table::row("a", table::Ended::Code(0), None, "", 0.0);
        row.status = status.into();
        row.rules = rules.iter().map(|r| r.to_string()).collect();
        row.score = score;
        row.max_score = score.map(|_| 10.0);
        row
    }

    #[test]
    fn rules_fixed_and_newly_broken_are_the_differences_of_the_failing_rules() {
        let before = report(&["k.a", "k.b"], 4.0);
        // The scenario that broke k.a passes now.
        let mut then = report(&["k.b", "k.c"], 6.0).scenarios.to_vec();
        then.push(ScenarioResult::new(
            "k.a",
            "kalah",
            "s.yaml",
            Status::Passed,
        ));
        let c = compared(
            &now("failed", &["k.b", "k.c"], Some(6.0)),
            Some(&before),
            Some(&report_of(&then, 6.0)),
        );
        assert_eq!(
            c,
            Compared {
                new: false,
                previous_score: Some(4.0),
                previous_max_score: Some(10.0),
                fixed_rules: vec!["k.a".into()],
                newly_broken_rules: vec!["k.c".into()],
            }
        );
        let mut row = now("failed", &["k.b", "k.c"], Some(6.0));
        row.compared = Some(c);
        assert_eq!(
            cells(&row),
            "<td class=\"n\" data-sort=\"4\">4 / 10</td><td data-sort=\"2\">+2 · fixed <code>k.a</code> · newly broken <code>k.c</code></td>"
        );
    }

    #[test]
    fn a_bot_without_a_report_then_is_new_and_one_without_a_verdict_now_fixed_nothing() {
        let new = compared(&now("passed", &[], Some(10.0)), None, None);
        assert!(new.new && new.fixed_rules.is_empty() && new.previous_score.is_none());
        let mut row = now("passed", &[], Some(10.0));
        row.compared = Some(new);
        assert_eq!(
            cells(&row),
            "<td class=\"n new\" data-sort=\"-1\">new</td><td data-sort=\"0\"></td>"
        );
        let before = report(&["k.a"], 4.0);
        let c = compared(&now("error", &[], None), Some(&before), None);
        assert!(!c.new && c.fixed_rules.is_empty(), "{c:?}");
        assert_eq!(c.previous_score, Some(4.0));
    }

    #[test]
    fn the_line_counts_bots_that_scored_higher_lower_the_same_and_new() {
        let before = report(&[], 5.0);
        let mut rows = vec![
            now("passed", &[], Some(7.0)),
            now("failed", &["k.a"], Some(2.0)),
            now("failed", &["k.a"], Some(5.0)),
            now("passed", &[], Some(10.0)),
        ];
        for row in &mut rows[..3] {
            row.compared = Some(compared(row, Some(&before), None));
        }
        rows[3].compared = Some(compared(&rows[3], None, None));
        let grades = Grades {
            protocheck: "0".into(),
            game: None,
            options: vec![],
            partition: None,
            bot_time_limit: None,
            compared_with: Some("last-week".into()),
            bots: rows,
        };
        assert_eq!(
            line(&grades),
            "<p class=\"compared\">Compared with the grades in <code>last-week</code>: 1 scored higher, 1 lower, 1 the same, 1 new (no report there)</p>\n"
        );
    }

    /// Issue 29.4: a rule the new run never reached is not fixed. Then the
    /// bot broke k.a in scenario `a` and k.b in `b`; now `a` was skipped
    /// (or never run, the bot gone before it) and only `b` passed: k.a is
    /// not seen, not fixed. A check of a rule that ran and held (another
    /// scenario's) fixes it too.
    #[test]
    fn a_rule_the_new_run_never_reached_is_not_fixed() {
        let before = report_of(&[broke("a", "k.a"), broke("b", "k.b")], 4.0);
        let mut skipped = ScenarioResult::new("a", "kalah", "s.yaml", Status::Skipped);
        skipped.skip_reason = Some("--fail-fast".into());
        let passed = ScenarioResult::new("b", "kalah", "s.yaml", Status::Passed);
        let row = now("passed", &[], Some(5.0));
        let unreached = report_of(&[skipped.clone(), passed.clone()], 5.0);
        let c = compared(&row, Some(&before), Some(&unreached));
        assert_eq!(c.fixed_rules, ["k.b"], "{c:?}");
        // Nothing run at all (the bot crashed at start-up in another
        // scenario, the rest not run): nothing fixed.
        let crashed = report_of(&[skipped.clone()], 0.0);
        let c = compared(
            &now("failed", &["io.crash"], Some(0.0)),
            Some(&before),
            Some(&crashed),
        );
        assert!(c.fixed_rules.is_empty(), "{c:?}");
        assert_eq!(c.newly_broken_rules, ["io.crash"]);
        // k.a checked and kept in a scenario of another name: fixed.
        let mut other = ScenarioResult::new("c", "kalah", "s.yaml", Status::Passed);
        other.coverage.passed("k.a");
        let checked = report_of(&[skipped, passed, other], 10.0);
        let c = compared(&row, Some(&before), Some(&checked));
        assert_eq!(c.fixed_rules, ["k.a", "k.b"], "{c:?}");
    }
}
