//! The grades table: one row per bot, read off its protocheck's JSON report
//! and exit status, written as `grades.csv` and `grades.json`.

use crate::transport::sandbox::Layers;
use serde::{Deserialize, Serialize};
use serde_json::Value;
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
pub fn row(id: &str, ended: Ended, report: Option<&Value>, stderr: &str, seconds: f64) -> Row {
    let totals = |key: &str| report.and_then(|r| r["totals"][key].as_u64()).unwrap_or(0) as usize;
    let interrupted = totals("interrupted") > 0;
    let status = match (&ended, report) {
        (_, Some(_)) if interrupted => "interrupted",
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
    let rules = report
        .map(|r| rules_of_severity(r, "fail"))
        .unwrap_or_default();
    let warning_rules = report
        .map(|r| rules_of_severity(r, "warn"))
        .unwrap_or_default();
    let skipped_because = report.map(skip_reasons).unwrap_or_default();
    Row {
        sandbox: report.map(sandbox_of),
        id: id.to_string(),
        status: status.to_string(),
        passed: totals("passed"),
        failed: totals("failed"),
        warnings: totals("warnings"),
        skipped: totals("skipped"),
        first_failing_rule: report.and_then(first_failing_rule),
        seconds: (seconds * 10.0).round() / 10.0,
        report: format!("{}/report.html", id),
        note,
        rules,
        warning_rules,
        skipped_because,
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

/// The layers a bot's JSON report says confined it; a report written
/// before protocheck recorded them (no sandbox then) says none.
pub fn sandbox_of(report: &Value) -> Layers {
    match report.get("sandbox") {
        Some(layers) => serde_json::from_value(layers.clone()).unwrap_or_else(|e| {
            Layers::none(&format!("the report's sandbox could not be read: {e}"))
        }),
        None => crate::report::sandbox_not_recorded(),
    }
}

/// A row kept from an earlier grade that did not record the sandbox gets
/// it from the bot's report in `folder` (its `report.json`).
pub fn with_recorded_sandbox(mut row: Row, folder: &Path) -> Row {
    if row.sandbox.is_none()
        && let Ok(text) = std::fs::read_to_string(folder.join("report.json"))
        && let Ok(report) = serde_json::from_str::<Value>(&text)
    {
        row.sandbox = Some(sandbox_of(&report));
    }
    row
}

fn last_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .map(|l| l.trim_start_matches("error: "))
}

fn scenarios(report: &Value) -> impl Iterator<Item = &Value> {
    report["scenarios"].as_array().into_iter().flatten()
}

fn first_failing_rule(report: &Value) -> Option<String> {
    let failed = scenarios(report).find(|s| s["status"] == "failed")?;
    let violations = failed["violations"].as_array()?;
    violations
        .iter()
        .find(|v| v["severity"] == "fail")
        .or_else(|| violations.first())
        .and_then(|v| v["rule"].as_str())
        .map(String::from)
}

/// Every rule with a finding of `severity` (`fail`, `warn`), sorted.
fn rules_of_severity(report: &Value, severity: &str) -> Vec<String> {
    let mut rules: Vec<String> = scenarios(report)
        .flat_map(|s| {
            let found = s["violations"].as_array().into_iter().flatten();
            let counted = s["omitted"].as_array().into_iter().flatten();
            found.chain(counted)
        })
        .filter(|v| v["severity"] == severity)
        .filter_map(|v| v["rule"].as_str().map(String::from))
        .collect();
    rules.sort();
    rules.dedup();
    rules
}

/// Why scenarios were skipped, with how many, one entry per shared reason
/// as the text report groups them: `Kalah(6,4) board; a real match is
/// always Kalah(7,7) …` and `Kalah(8,8) board; …` are one entry that
/// names both boards.
fn skip_reasons(report: &Value) -> Vec<Skipped> {
    // (shared part, own first clauses, count)
    let mut groups: Vec<(String, Vec<String>, usize)> = Vec::new();
    for s in scenarios(report).filter(|s| s["status"] == "skipped") {
        let reason = s["skip_reason"].as_str().unwrap_or("no reason given");
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
    use serde_json::json;

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
        let row = row("bob", Ended::Code(1), Some(&r), "", 2.25);
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
        let row = row("kim", Ended::Code(0), Some(&r), "", 1.0);
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
        let mut cut = row("slow", Ended::Code(0), Some(&r), "", 125.0);
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
        let mut other = row("slow", Ended::Code(0), Some(&r), "", 125.0);
        count_not_run(&mut other, Some(std::time::Duration::from_secs(60)));
        assert_eq!(other.not_run, 0);
        count_not_run(&mut other, None);
        assert_eq!(other.not_run, 0);
    }

    #[test]
    fn a_bot_that_finished_nothing_within_its_budget_has_no_grade() {
        let spent = "not run: --bot-time-limit 1s spent";
        let r = scenarios(&[("skipped", spent), ("skipped", spent)]);
        let mut none = row("slow", Ended::Code(0), Some(&r), "", 1.2);
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
            Some(&report("passed", json!([]))),
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
            row("a", Ended::Code(0), Some(&sandboxed), "", 1.0),
            row("b", Ended::Code(0), Some(&off), "", 1.0),
            row("c", Ended::Code(0), Some(&before), "", 1.0),
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

    #[test]
    fn a_kept_row_without_the_sandbox_reads_it_from_the_bot_s_report() {
        let dir =
            std::env::temp_dir().join(format!("protocheck-kept-sandbox-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A row from a grades file made before the field existed.
        let passed = report("passed", json!([]));
        let mut old =
            serde_json::to_value(row("a", Ended::Code(0), Some(&passed), "", 1.0)).unwrap();
        old.as_object_mut().unwrap().remove("sandbox");
        let old: Row = serde_json::from_value(old).unwrap();
        assert_eq!(old.sandbox, None);
        let none_yet = with_recorded_sandbox(old.clone(), &dir);
        assert_eq!(none_yet.sandbox, None, "no report.json: still unknown");
        let mut off = passed.clone();
        off["sandbox"] = serde_json::to_value(Layers::none("--sandbox off")).unwrap();
        std::fs::write(dir.join("report.json"), off.to_string()).unwrap();
        assert_eq!(
            with_recorded_sandbox(old.clone(), &dir).sandbox,
            Some(Layers::none("--sandbox off"))
        );
        std::fs::write(dir.join("report.json"), passed.to_string()).unwrap();
        assert_eq!(
            with_recorded_sandbox(old, &dir).sandbox,
            Some(crate::report::sandbox_not_recorded())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
