//! The grades table's rows, columns and CSV.
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
        score: None,
        coverage: None,
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
            ",\"3 × Kalah(6,4) board, Kalah(8,8) board; a real match is Kalah(7,7); run with --all-sizes | 1 × the run stopped early\",none (not recorded: the report predates protocheck's sandbox),0,,"
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
    assert!(line.ends_with(",2,,"), "{line}");
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
        line.ends_with(",\"'=HYPERLINK(\"\"x\"\")\",,x.warned,,none (not recorded: the report predates protocheck's sandbox),0,,"),
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
        lines[0].ends_with(",skipped_because,sandbox,not_run,score,max_score"),
        "{text}"
    );
    assert!(
        lines[1].ends_with(",\"landlock v7 (files, tcp, signals), seccomp (scheduling)\",0,,"),
        "{text}"
    );
    assert!(lines[2].ends_with(",none (--sandbox off),0,,"), "{text}");
    assert!(
        lines[3].ends_with(",none (not recorded: the report predates protocheck's sandbox),0,,"),
        "{text}"
    );
    assert!(lines[4].ends_with(",,,0,,"), "{text}");
    // grades.json: a field per bot, read back as written.
    let grades = Grades {
        protocheck: "0".into(),
        game: None,
        options: vec![],
        partition: None,
        bot_time_limit: None,
        compared_with: None,
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
    let dir = std::env::temp_dir().join(format!("protocheck-kept-sandbox-{}", std::process::id()));
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

#[test]
fn the_score_comes_from_each_bot_s_report_into_the_last_columns_and_the_gradebook() {
    let mut scored = typed(&report(
        "failed",
        json!([{"rule": "x.broken", "severity": "fail"}]),
    ));
    scored.score = Some(7.5);
    scored.max_score = Some(10.0);
    let rows = [
        row("a,b", Ended::Code(1), Some(&scored), "", 1.0),
        row("c", Ended::Code(2), None, "error: no bot", 0.0),
    ];
    assert_eq!((rows[0].score, rows[0].max_score), (Some(7.5), Some(10.0)));
    let text = csv(&rows);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].ends_with(",not_run,score,max_score"), "{text}");
    assert!(lines[1].ends_with(",0,7.5,10"), "{text}");
    assert!(
        lines[2].ends_with(",0,,"),
        "no report: no score, not a zero: {text}"
    );
    assert_eq!(gradebook_csv(&rows), "id,score\n\"a,b\",7.5\nc,\n");
}
