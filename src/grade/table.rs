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
    }
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

/// A row kept from an earlier grade that did not record the sandbox gets
/// it from the bot's report in `folder` (its `report.json`).
pub fn with_recorded_sandbox(mut row: Row, folder: &Path) -> Row {
    if row.sandbox.is_none()
        && let Some(report) = read_report(folder)
    {
        row.sandbox = Some(report.sandbox);
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
fn rules_of_severity(scenarios: &[ScenarioResult], severity: Severity) -> Vec<String> {
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
    pub bots: Vec<Row>,
}

/// New columns go at the end, so that a script reading columns by
/// position still reads the old ones.
pub const CSV_HEADER: &str = "id,status,passed,failed,warnings,skipped,first_failing_rule,seconds,report,note,failing_rules,warning_rules,skipped_because,sandbox,not_run";

pub fn csv(rows: &[Row]) -> String {
    let mut text = format!("{CSV_HEADER}\n");
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
        ];
        let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        text += &quoted.join(",");
        text.push('\n');
    }
    text
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
pub fn write(dir: &Path, grades: &mut Grades) -> Result<(), String> {
    grades.bots.sort_by(|a, b| a.id.cmp(&b.id));
    let json = serde_json::to_string_pretty(grades).map_err(|e| e.to_string())? + "\n";
    write_file(&dir.join("grades.json"), &json)?;
    write_file(&dir.join("grades.csv"), &csv(&grades.bots))
}

pub fn read(dir: &Path) -> Result<Grades, String> {
    let path = dir.join("grades.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a grades file: {e}", path.display()))
}

pub fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// A typed report from a compact JSON sketch: totals, scenarios with
    /// their status, skip reason and findings (rule, severity), sandbox.
    fn typed(sketch: &Value) -> Report<'static> {
        let count = |key: &str| sketch["totals"][key].as_u64().unwrap_or(0) as usize;
        let scenarios: Vec<ScenarioResult> = sketch["scenarios"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, s)| {
                let status: Status = serde_json::from_value(s["status"].clone()).unwrap();
                let mut r = ScenarioResult::new(&format!("s{i}"), "kalah", "s.yaml", status);
                r.skip_reason = s["skip_reason"].as_str().map(String::from);
                for v in s["violations"].as_array().into_iter().flatten() {
                    let rule: &'static str =
                        Box::leak(v["rule"].as_str().unwrap().to_string().into_boxed_str());
                    let mut found = crate::verdict::RuleInfo {
                        id: rule,
                        severity: Severity::Fail,
                        spec: "",
                    };
                    found.severity = serde_json::from_value(v["severity"].clone()).unwrap();
                    let info: &'static crate::verdict::RuleInfo = Box::leak(Box::new(found));
                    r.violations.push(info.violation("m"));
                }
                r
            })
            .collect();
        let info = crate::report::RunInfo {
            version: "0".into(),
            game: "kalah".into(),
            bot: "./bot".into(),
            generated: None,
            strict: false,
            partition: None,
            workspace: None,
            environment: Default::default(),
            sandbox: match sketch.get("sandbox") {
                Some(v) => serde_json::from_value(v.clone()).unwrap(),
                None => crate::report::sandbox_not_recorded(),
            },
        };
        Report {
            totals: crate::outcome::Totals {
                passed: count("passed"),
                failed: count("failed"),
                errors: count("errors"),
                skipped: count("skipped"),
                interrupted: count("interrupted"),
                warnings: count("warnings"),
            },
            scenarios: std::borrow::Cow::Owned(scenarios),
            ..Report::of(&info, &[])
        }
    }

    fn report(status: &str, violations: Value) -> Value {
        json!({
            "totals": {"passed": 3, "failed": 1, "errors": 0, "skipped": 2, "warnings": 1},
            "scenarios": [
                {"status": "passed", "violations": [{"rule": "x.warned", "severity": "warn"}]},
                {"status": status, "violations": violations},
            ]
        })
    }

    #[test]
    fn the_first_failing_rule_is_the_first_fail_finding_of_the_first_failed_scenario() {
        let r = report(
            "failed",
            json!([{"rule": "x.later-warn", "severity": "warn"}, {"rule": "x.broken", "severity": "fail"}, {"rule": "a.second", "severity": "fail"}]),
        );
        let row = row("bob", Ended::Code(1), Some(&typed(&r)), "", 2.25);
        assert_eq!(row.status, "failed");
        assert_eq!(row.first_failing_rule.as_deref(), Some("x.broken"));
        assert_eq!(row.rules, ["a.second", "x.broken"]);
        assert_eq!(row.warning_rules, ["x.later-warn", "x.warned"]);
        assert_eq!(
            (row.passed, row.failed, row.warnings, row.skipped),
            (3, 1, 1, 2)
        );
        assert_eq!(row.note, None);
    }

    #[test]
    fn skipped_scenarios_are_counted_by_their_shared_reason() {
        let r = json!({
            "totals": {"passed": 1, "skipped": 3},
            "scenarios": [
                {"status": "skipped", "skip_reason": "Kalah(6,4) board; a real match is Kalah(7,7); run with --all-sizes", "violations": []},
                {"status": "passed", "violations": []},
                {"status": "skipped", "skip_reason": "Kalah(8,8) board; a real match is Kalah(7,7); run with --all-sizes", "violations": []},
                {"status": "skipped", "skip_reason": "Kalah(6,4) board; a real match is Kalah(7,7); run with --all-sizes", "violations": []},
                {"status": "skipped", "skip_reason": "the run stopped early", "violations": []},
            ]
        });
        let row = row("kim", Ended::Code(0), Some(&typed(&r)), "", 1.0);
        assert_eq!(
            row.skipped_because,
            [
                Skipped {
                    reason: "Kalah(6,4) board, Kalah(8,8) board; a real match is Kalah(7,7); run with --all-sizes".into(),
                    scenarios: 3
                },
                Skipped {
                    reason: "the run stopped early".into(),
                    scenarios: 1
                },
            ]
        );
        let text = csv(&[row]);
        assert!(
            text.lines().nth(1).unwrap().ends_with(
                ",\"3 × Kalah(6,4) board, Kalah(8,8) board; a real match is Kalah(7,7); run with --all-sizes | 1 × the run stopped early\",none (not recorded: the report predates protocheck's sandbox),0"
            ),
            "{text}"
        );
    }

    /// A report whose scenarios have these statuses and skip reasons.
    fn scenarios(list: &[(&str, &str)]) -> Value {
        let count = |s: &str| list.iter().filter(|(st, _)| *st == s).count();
        json!({
            "totals": {"passed": count("passed"), "failed": count("failed"), "skipped": count("skipped")},
            "scenarios": list.iter().map(|(status, reason)| json!({
                "status": status, "skip_reason": reason, "violations": []
            })).collect::<Vec<_>>()
        })
    }

    #[test]
    fn scenarios_the_budget_left_out_are_counted_as_not_run() {
        let limit = std::time::Duration::from_secs(120);
        let spent = "not run: --bot-time-limit 2m spent";
        let r = scenarios(&[
            ("passed", ""),
            ("skipped", "Kalah(6,4) board; run with --all-sizes"),
            ("passed", ""),
            ("skipped", spent),
            ("skipped", spent),
        ]);
        let mut cut = row("slow", Ended::Code(0), Some(&typed(&r)), "", 125.0);
        count_not_run(&mut cut, Some(limit));
        assert_eq!(
            (cut.status.as_str(), cut.passed, cut.skipped, cut.not_run),
            ("passed", 2, 3, 2)
        );
        assert_eq!(cut.note, None);
        let line = csv(std::slice::from_ref(&cut));
        let line = line.lines().nth(1).unwrap();
        // skipped_because, then the sandbox, then not_run.
        assert!(line.contains(
            ",\"1 × Kalah(6,4) board; run with --all-sizes | 2 × not run: --bot-time-limit 2m spent\","
        ), "{line}");
        assert!(line.ends_with(",2"), "{line}");
        // Another limit's reason is not this run's; no limit, nothing counted.
        let mut other = row("slow", Ended::Code(0), Some(&typed(&r)), "", 125.0);
        count_not_run(&mut other, Some(std::time::Duration::from_secs(60)));
        assert_eq!(other.not_run, 0);
        count_not_run(&mut other, None);
        assert_eq!(other.not_run, 0);
    }

    #[test]
    fn a_bot_that_finished_nothing_within_its_budget_has_no_grade() {
        let spent = "not run: --bot-time-limit 1s spent";
        let r = scenarios(&[("skipped", spent), ("skipped", spent)]);
        let mut none = row("slow", Ended::Code(0), Some(&typed(&r)), "", 1.2);
        count_not_run(&mut none, Some(std::time::Duration::from_secs(1)));
        assert_eq!((none.status.as_str(), none.not_run), ("error", 2));
        assert_eq!(
            none.note.as_deref(),
            Some("not graded: --bot-time-limit 1s spent before any scenario finished")
        );
    }

    #[test]
    fn no_report_is_an_error_with_the_last_word_of_protocheck() {
        let row = row(
            "eve",
            Ended::Code(2),
            None,
            "started\nerror: cannot start bot `x`: gone\n",
            0.0,
        );
        assert_eq!(row.status, "error");
        assert_eq!(row.note.as_deref(), Some("cannot start bot `x`: gone"));
        let killed = super::row("eve", Ended::Signal("SIGKILL"), None, "", 0.0);
        assert_eq!(
            killed.note.as_deref(),
            Some("protocheck was killed by SIGKILL")
        );
    }

    #[test]
    fn csv_quotes_and_defuses_bot_supplied_text() {
        let mut r = row(
            "a,\"b\"",
            Ended::Code(0),
            Some(&typed(&report("passed", json!([])))),
            "",
            1.0,
        );
        r.note = Some("=HYPERLINK(\"x\")".into());
        let text = csv(&[r]);
        let line = text.lines().nth(1).unwrap();
        assert!(line.starts_with("\"a,\"\"b\"\"\",passed,"), "{line}");
        // The note, then the new columns (rules broken, warned, skipped,
        // not run).
        assert!(
            line.ends_with(",\"'=HYPERLINK(\"\"x\"\")\",,x.warned,,none (not recorded: the report predates protocheck's sandbox),0"),
            "{line}"
        );
    }
    #[test]
    fn the_sandbox_column_and_field_come_from_each_bot_s_report() {
        let all = Layers {
            landlock: Some(7),
            files: true,
            tcp: true,
            signals: true,
            scheduling: true,
            none_because: None,
        };
        let mut sandboxed = report("passed", json!([]));
        sandboxed["sandbox"] = serde_json::to_value(&all).unwrap();
        let mut off = report("passed", json!([]));
        off["sandbox"] = serde_json::to_value(Layers::none("--sandbox off")).unwrap();
        let before = report("passed", json!([]));
        let rows = [
            row("a", Ended::Code(0), Some(&typed(&sandboxed)), "", 1.0),
            row("b", Ended::Code(0), Some(&typed(&off)), "", 1.0),
            row("c", Ended::Code(0), Some(&typed(&before)), "", 1.0),
            row("d", Ended::Code(2), None, "error: no bot", 0.0),
        ];
        assert_eq!(rows[0].sandbox.as_ref(), Some(&all));
        assert_eq!(rows[1].sandbox, Some(Layers::none("--sandbox off")));
        assert_eq!(rows[2].sandbox, Some(crate::report::sandbox_not_recorded()));
        assert_eq!(rows[3].sandbox, None);
        let text = csv(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].ends_with(",skipped_because,sandbox,not_run"),
            "{text}"
        );
        assert!(
            lines[1].ends_with(",\"landlock v7 (files, tcp, signals), seccomp (scheduling)\",0"),
            "{text}"
        );
        assert!(lines[2].ends_with(",none (--sandbox off),0"), "{text}");
        assert!(
            lines[3].ends_with(",none (not recorded: the report predates protocheck's sandbox),0"),
            "{text}"
        );
        assert!(lines[4].ends_with(",,,0"), "{text}");
        // grades.json: a field per bot, read back as written.
        let grades = Grades {
            protocheck: "0".into(),
            game: None,
            options: vec![],
            partition: None,
            bot_time_limit: None,
            bots: rows.to_vec(),
        };
        let json = serde_json::to_value(&grades).unwrap();
        assert_eq!(json["bots"][0]["sandbox"]["landlock"], 7);
        assert_eq!(json["bots"][1]["sandbox"]["none_because"], "--sandbox off");
        assert!(json["bots"][3]["sandbox"].is_null());
        let back: Grades = serde_json::from_value(json).unwrap();
        assert_eq!(back.bots, rows);
    }

    /// The JSON report a run of the sketch writes.
    fn written(sketch: &Value) -> String {
        let report = typed(sketch);
        crate::report::json::render(&report.info(), &report.scenarios)
    }

    #[test]
    fn a_kept_row_without_the_sandbox_reads_it_from_the_bot_s_report() {
        let dir =
            std::env::temp_dir().join(format!("protocheck-kept-sandbox-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A row from a grades file made before the field existed.
        let passed = report("passed", json!([]));
        let mut old =
            serde_json::to_value(row("a", Ended::Code(0), Some(&typed(&passed)), "", 1.0)).unwrap();
        old.as_object_mut().unwrap().remove("sandbox");
        let old: Row = serde_json::from_value(old).unwrap();
        assert_eq!(old.sandbox, None);
        let none_yet = with_recorded_sandbox(old.clone(), &dir);
        assert_eq!(none_yet.sandbox, None, "no report.json: still unknown");
        let mut off = passed.clone();
        off["sandbox"] = serde_json::to_value(Layers::none("--sandbox off")).unwrap();
        std::fs::write(dir.join("report.json"), written(&off)).unwrap();
        assert_eq!(
            with_recorded_sandbox(old.clone(), &dir).sandbox,
            Some(Layers::none("--sandbox off"))
        );
        std::fs::write(dir.join("report.json"), written(&passed)).unwrap();
        assert_eq!(
            with_recorded_sandbox(old, &dir).sandbox,
            Some(crate::report::sandbox_not_recorded())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
