//! The grades table: one row per bot, read off its protocheck's JSON report
//! (typed, `report::json::Report`) and exit status, written as `grades.csv` and `grades.json`.

use crate::outcome::{ScenarioResult, Status};
use crate::report::json::Report;
use crate::transport::sandbox::Layers;
use crate::verdict::Severity;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One bot's grade.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub id: String,
    /// passed | failed | error | interrupted
    pub status: String,
    pub passed: usize,
    pub failed: usize,
    pub warnings: usize,
    pub skipped: usize,
    /// The first failing finding's rule, in report order.
    pub first_failing_rule: Option<String>,
    /// Wall time of the bot's protocheck run.
    pub seconds: f64,
    /// The bot's HTML report, relative to the output folder.
    pub report: String,
    /// Why there is no verdict (status `error`/`interrupted`): the last
    /// thing the bot's protocheck said.
    pub note: Option<String>,
    /// Every rule the bot broke (a failing finding), sorted: for the chart.
    pub rules: Vec<String>,
    /// Every rule the bot was warned about (a warning finding), sorted,
    /// e.g. `io.no-exit`. (Absent from grades made before it existed.)
    #[serde(default)]
    pub warning_rules: Vec<String>,
    /// Why scenarios were skipped, each reason with how many, in report
    /// order (e.g. a board size outside the default run).
    #[serde(default)]
    pub skipped_because: Vec<Skipped>,
    /// Which sandbox layers confined the bot, as its report says (a report
    /// from before protocheck had a sandbox: none, "not recorded"); `None`
    /// when there is no report (and in grades made before this field).
    #[serde(default)]
    pub sandbox: Option<Layers>,
    /// Scenarios not run because `--bot-time-limit` was spent (a running
    /// one cut short included); also counted in `skipped`, with the reason.
    #[serde(default)]
    pub not_run: usize,
    /// The bot's score under the run's grading policy, as its report says
    /// (`None`: no report, or a grade made before scores existed).
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default)]
    pub max_score: Option<f64>,
    /// With `grade --compare OLD_DIR`: the bot beside its grade there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compared: Option<Compared>,
    /// The rules its run checked and the situations it reached, with their
    /// counts, as its report's coverage says (only those checked or
    /// reached at least once); empty without a report, or from a report
    /// written before coverage (the class page's coverage table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub coverage: Vec<crate::coverage::Row>,
}

/// A bot's grade beside its report in an earlier grade's folder
/// (`grade --compare`, `compare.rs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Compared {
    /// No report of the bot there (a new bot, or one without a verdict
    /// then): nothing to compare, the fields below are empty.
    pub new: bool,
    pub previous_score: Option<f64>,
    pub previous_max_score: Option<f64>,
    /// Rules it broke then and breaks no more, sorted.
    pub fixed_rules: Vec<String>,
    /// Rules it breaks now and did not then, sorted.
    pub newly_broken_rules: Vec<String>,
}

/// Scenarios skipped for one reason.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    pub reason: String,
    pub scenarios: usize,
}

/// How the bot's protocheck ended.
pub enum Ended {
    /// Its exit status.
    Code(i32),
    /// Killed by a signal (its name).
    Signal(&'static str),
}

/// The row for `id` from its protocheck's end, JSON report (if written) and
/// stderr.
pub fn row(id: &str, ended: Ended, report: Option<&Report>, stderr: &str, seconds: f64) -> Row {
    let totals = report.map(|r| r.totals).unwrap_or_default();
    let status = match (&ended, report) {
        (_, Some(_)) if totals.interrupted > 0 => "interrupted",
        (Ended::Code(0), Some(_)) => "passed",
        (Ended::Code(1), Some(_)) => "failed",
        _ => "error",
    };
    let note = match status {
        "passed" | "failed" => None,
        _ => Some(match ended {
            Ended::Signal(name) => format!("protocheck was killed by {name}"),
            Ended::Code(_) => last_line(stderr)
                .unwrap_or("protocheck ended without a report")
                .to_string(),
        }),
    };
    let scenarios: &[ScenarioResult] = report.map(|r| &r.scenarios[..]).unwrap_or_default();
    Row {
        sandbox: report.map(|r| r.sandbox.clone()),
        id: id.to_string(),
        status: status.to_string(),
        passed: totals.passed,
        failed: totals.failed,
        warnings: totals.warnings,
        skipped: totals.skipped,
        first_failing_rule: first_failing_rule(scenarios),
        seconds: (seconds * 10.0).round() / 10.0,
        report: format!("{}/report.html", id),
        note,
        rules: rules_of_severity(scenarios, Severity::Fail),
        warning_rules: rules_of_severity(scenarios, Severity::Warn),
        skipped_because: skip_reasons(scenarios),
        not_run: 0,
        score: report.and_then(|r| r.score),
        max_score: report.and_then(|r| r.max_score),
        compared: None,
        coverage: report.map(coverage_of).unwrap_or_default(),
    }
}

/// The rows of a report's coverage that were checked or reached.
fn coverage_of(report: &Report) -> Vec<crate::coverage::Row> {
    report
        .coverage
        .iter()
        .flat_map(|c| &c.rows)
        .filter(|r| r.checked > 0)
        .cloned()
        .collect()
}

/// Count the scenarios `--bot-time-limit` left out (its protocheck lists
/// them as skipped with [`crate::suite::budget::reason`]). The bot is
/// graded on the scenarios it finished; when it finished none it has no
/// grade at all, not a pass.
pub fn count_not_run(row: &mut Row, budget: Option<std::time::Duration>) {
    let Some(limit) = budget else { return };
    let reason = crate::suite::budget::reason(limit);
    row.not_run = row
        .skipped_because
        .iter()
        .filter(|s| s.reason == reason)
        .map(|s| s.scenarios)
        .sum();
    if row.not_run > 0 && row.passed + row.failed == 0 && row.status == "passed" {
        row.status = "error".into();
        row.note = Some(format!(
            "not graded: --bot-time-limit {} spent before any scenario finished",
            crate::suite::budget::show(limit)
        ));
    }
}

/// A bot's `report.json` in `folder`, read back; `None` when there is
/// none or it cannot be read.
pub fn read_report(folder: &Path) -> Option<Report<'static>> {
    let text = std::fs::read_to_string(folder.join("report.json")).ok()?;
    crate::report::json::read(&text).ok()
}

/// A row kept from an earlier grade that did not record the sandbox (or
/// the coverage) gets it from the bot's report in `folder` (its
/// `report.json`).
pub fn with_recorded_sandbox(mut row: Row, folder: &Path) -> Row {
    if (row.sandbox.is_none() || row.coverage.is_empty())
        && let Some(report) = read_report(folder)
    {
        if row.sandbox.is_none() {
            row.sandbox = Some(report.sandbox.clone());
        }
        if row.coverage.is_empty() {
            row.coverage = coverage_of(&report);
        }
    }
    row
}

fn last_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .map(|l| l.trim_start_matches("error: "))
}

fn first_failing_rule(scenarios: &[ScenarioResult]) -> Option<String> {
    let failed = scenarios.iter().find(|s| s.status == Status::Failed)?;
    let violations = &failed.violations;
    violations
        .iter()
        .find(|v| v.severity == Severity::Fail)
        .or_else(|| violations.first())
        .map(|v| v.rule.to_string())
}

/// Every rule with a finding of `severity`, counted ones included, sorted.
pub fn rules_of_severity(scenarios: &[ScenarioResult], severity: Severity) -> Vec<String> {
    let mut rules: Vec<String> = scenarios
        .iter()
        .flat_map(|s| {
            let found = s.violations.iter().map(|v| (v.rule, v.severity));
            let counted = s.omitted.iter().map(|o| (o.rule, o.severity));
            found.chain(counted)
        })
        .filter(|(_, s)| *s == severity)
        .map(|(rule, _)| rule.to_string())
        .collect();
    rules.sort();
    rules.dedup();
    rules
}

/// Why scenarios were skipped, with how many, one entry per shared reason
/// as the text report groups them: `Kalah(6,4) board; a real match is
/// always Kalah(7,7) …` and `Kalah(8,8) board; …` are one entry that
/// names both boards.
fn skip_reasons(scenarios: &[ScenarioResult]) -> Vec<Skipped> {
    // (shared part, own first clauses, count)
    let mut groups: Vec<(String, Vec<String>, usize)> = Vec::new();
    for s in scenarios.iter().filter(|s| s.status == Status::Skipped) {
        let reason = s.skip_reason.as_deref().unwrap_or("no reason given");
        let (own, shared) = match reason.split_once("; ") {
            Some((own, shared)) => (Some(own), shared),
            None => (None, reason),
        };
        let group = match groups.iter_mut().position(|g| g.0 == shared) {
            Some(i) => &mut groups[i],
            None => {
                groups.push((shared.to_string(), Vec::new(), 0));
                groups.last_mut().expect("just pushed")
            }
        };
        group.2 += 1;
        if let Some(own) = own
            && !group.1.iter().any(|o| o == own)
        {
            group.1.push(own.to_string());
        }
    }
    const SHOWN: usize = 4;
    groups
        .into_iter()
        .map(|(shared, own, scenarios)| {
            let mut reason = own[..own.len().min(SHOWN)].join(", ");
            if own.len() > SHOWN {
                reason += ", …";
            }
            if !reason.is_empty() {
                reason += "; ";
            }
            reason += &shared;
            Skipped { reason, scenarios }
        })
        .collect()
}

/// `grades.json`: the rows and what they were graded with.
#[derive(Debug, Serialize, Deserialize)]
pub struct Grades {
    pub protocheck: String,
    pub game: Option<String>,
    /// The run options every bot was graded with (after `--`).
    pub options: Vec<String>,
    /// `K/N` when this is one shard of the roster.
    pub partition: Option<String>,
    /// `--bot-time-limit`, as given (e.g. `2m`); absent: none.
    #[serde(default)]
    pub bot_time_limit: Option<String>,
    /// `grade --compare OLD_DIR`: the folder, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compared_with: Option<String>,
    pub bots: Vec<Row>,
}

/// New columns go at the end, so that a script reading columns by
/// position still reads the old ones.
pub const CSV_HEADER: &str = "id,status,passed,failed,warnings,skipped,first_failing_rule,seconds,report,note,failing_rules,warning_rules,skipped_because,sandbox,not_run,score,max_score";

/// The columns `grade --compare` adds (only then).
pub const CSV_COMPARED: &str =
    "previous,previous_score,previous_max_score,fixed_rules,newly_broken_rules";

pub fn csv(rows: &[Row]) -> String {
    let compared = rows.iter().any(|r| r.compared.is_some());
    let mut text = match compared {
        true => format!("{CSV_HEADER},{CSV_COMPARED}\n"),
        false => format!("{CSV_HEADER}\n"),
    };
    for r in rows {
        let fields = [
            r.id.clone(),
            r.status.clone(),
            r.passed.to_string(),
            r.failed.to_string(),
            r.warnings.to_string(),
            r.skipped.to_string(),
            r.first_failing_rule.clone().unwrap_or_default(),
            format!("{:.1}", r.seconds),
            r.report.clone(),
            r.note.clone().unwrap_or_default(),
            r.rules.join(" "),
            r.warning_rules.join(" "),
            r.skipped_because
                .iter()
                .map(|s| format!("{} × {}", s.scenarios, s.reason))
                .collect::<Vec<_>>()
                .join(" | "),
            r.sandbox
                .as_ref()
                .map(crate::report::sandbox_value)
                .unwrap_or_default(),
            r.not_run.to_string(),
            r.score.map(crate::grading::show).unwrap_or_default(),
            r.max_score.map(crate::grading::show).unwrap_or_default(),
        ];
        let mut fields = fields.to_vec();
        if compared {
            fields.extend(compared_fields(r.compared.as_ref()));
        }
        let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        text += &quoted.join(",");
        text.push('\n');
    }
    text
}

/// `previous` (`new`, or `graded`: its report there was read), the
/// previous score and maximum, the rules fixed and newly broken.
fn compared_fields(c: Option<&Compared>) -> [String; 5] {
    let Some(c) = c else {
        return Default::default();
    };
    [
        if c.new { "new" } else { "graded" }.to_string(),
        c.previous_score
            .map(crate::grading::show)
            .unwrap_or_default(),
        c.previous_max_score
            .map(crate::grading::show)
            .unwrap_or_default(),
        c.fixed_rules.join(" "),
        c.newly_broken_rules.join(" "),
    ]
}

/// Quoted when it must be; a leading `=`, `+`, `-` or `@` is prefixed with
/// `'` so a spreadsheet never runs a bot-supplied text as a formula.
fn csv_field(field: &str) -> String {
    let field = if field.starts_with(['=', '+', '-', '@']) {
        format!("'{field}")
    } else {
        field.to_string()
    };
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field
    }
}

/// Write `grades.csv` and `grades.json` into `dir` (rows sorted by id).
pub fn write(dir: &Path, grades: &mut Grades) -> Result<(), GradesFileError> {
    grades.bots.sort_by(|a, b| a.id.cmp(&b.id));
    let json = serde_json::to_string_pretty(grades).map_err(GradesFileError::Serialize)? + "\n";
    write_file(&dir.join("grades.json"), &json)?;
    write_file(&dir.join("grades.csv"), &csv(&grades.bots))
}

/// The CSV a gradebook imports: `id,score`, one line per bot (sorted by
/// id), the score empty for a bot without one (no report: not a zero).
pub fn gradebook_csv(rows: &[Row]) -> String {
    let mut text = String::from("id,score\n");
    for r in rows {
        let score = r.score.map(crate::grading::show).unwrap_or_default();
        text += &format!("{},{score}\n", csv_field(&r.id));
    }
    text
}

pub fn read(dir: &Path) -> Result<Grades, GradesFileError> {
    let path = dir.join("grades.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(source) => return Err(GradesFileError::Read { path, source }),
    };
    serde_json::from_str(&text).map_err(|source| GradesFileError::NotGrades { path, source })
}

pub fn write_file(path: &Path, text: &str) -> Result<(), GradesFileError> {
    std::fs::write(path, text).map_err(|source| GradesFileError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// A grades file (or the class page beside it) that cannot be read or
/// written.
#[derive(Debug, thiserror::Error)]
pub enum GradesFileError {
    #[error("{0}")]
    Serialize(#[source] serde_json::Error),
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a grades file: {source}", path.display())]
    NotGrades {
        path: std::path::PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
