//! `grade --compare OLD_DIR`: each bot beside its grade in an earlier
//! grade's output folder, read from its report there
//! (`OLD_DIR/<id>/report.json`, through `report::json`): the previous
//! score and the rules it fixed or newly broke. A bot without a report
//! there is new. Shown on the class page and in grades.csv/grades.json.

use super::table::{self, Compared, Grades, Row};
use crate::grading::show;
use crate::report::html::escape;
use crate::report::json::Report;
use crate::verdict::Severity;
use std::fmt::Write;
use std::path::Path;

/// `old` must be a folder, and not the output folder (whose reports this
/// grade replaces while it runs).
pub fn check(old: &Path, given: &Path, out: &Path) -> Result<(), String> {
    if !old.is_dir() {
        return Err(format!(
            "--compare {}: not a folder (give the output folder of an earlier grade)",
            given.display()
        ));
    }
    let same = match (old.canonicalize(), out.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(format!(
            "--compare {} is the output folder, whose reports this grade replaces: copy it first, or grade into another --out",
            given.display()
        ));
    }
    Ok(())
}

/// Every row beside its bot's report in `old`.
pub fn compare_all(rows: &mut [Row], old: &Path) {
    for row in rows {
        let before = table::read_report(&old.join(&row.id));
        row.compared = Some(compared(row, before.as_ref()));
    }
}

/// The row beside the bot's earlier report (`None`: it had none). Rules
/// are compared only when the bot has a verdict now: a bot without one
/// (no report) fixed nothing.
pub fn compared(row: &Row, before: Option<&Report>) -> Compared {
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
    let missing = |from: &[String], among: &[String]| -> Vec<String> {
        if !verdict {
            return Vec::new();
        }
        from.iter()
            .filter(|r| !among.contains(r))
            .cloned()
            .collect()
    };
    Compared {
        new: false,
        previous_score: before.score,
        previous_max_score: before.max_score,
        fixed_rules: missing(&broken_then, &row.rules),
        newly_broken_rules: missing(&row.rules, &broken_then),
    }
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
    use super::*;
    use crate::outcome::{ScenarioResult, Status};

    /// A report whose scenarios broke `rules`, scored `score` of 10.
    fn report(rules: &[&'static str], score: f64) -> Report<'static> {
        let results: Vec<ScenarioResult> = rules
            .iter()
            .map(|rule| {
                let mut r = ScenarioResult::new(rule, "kalah", "s.yaml", Status::Failed);
                let info: &'static crate::verdict::RuleInfo =
                    Box::leak(Box::new(crate::verdict::RuleInfo {
                        id: rule,
                        severity: Severity::Fail,
                        spec: "",
                    }));
                r.violations.push(info.violation("m"));
                r
            })
            .collect();
        let json = crate::report::json::render(&info(), &results);
        let mut report = crate::report::json::read(&json).unwrap();
        report.score = Some(score);
        report.max_score = Some(10.0);
        report
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
        let c = compared(&now("failed", &["k.b", "k.c"], Some(6.0)), Some(&before));
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
        let new = compared(&now("passed", &[], Some(10.0)), None);
        assert!(new.new && new.fixed_rules.is_empty() && new.previous_score.is_none());
        let mut row = now("passed", &[], Some(10.0));
        row.compared = Some(new);
        assert_eq!(
            cells(&row),
            "<td class=\"n new\" data-sort=\"-1\">new</td><td data-sort=\"0\"></td>"
        );
        let before = report(&["k.a"], 4.0);
        let c = compared(&now("error", &[], None), Some(&before));
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
            row.compared = Some(compared(row, Some(&before)));
        }
        rows[3].compared = Some(compared(&rows[3], None));
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
}
