//! The human and HTML reports of a graded bot, rendered by the ordinary
//! reporters from the results in its JSON report: one run, three reports
//! that cannot disagree. (A single run writes one format; the JSON report
//! holds every result field except the board drawings of the HTML
//! step-through, which are recorded only by an HTML run.)

use crate::outcome::{Direction, Frame, Omitted, ScenarioResult, Status, TranscriptLine};
use crate::report::RunInfo;
use crate::verdict::{ReplyTiming, Severity, StepRef, TimeFigure, Violation};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::Mutex;

/// Fields are those of the JSON report; an unknown one is an error, so a
/// field added to the report cannot be dropped here unnoticed (the
/// round-trip tests below read the report snapshots).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Report {
    protocheck: String,
    game: String,
    bot: String,
    generated: Option<Generated>,
    strict: bool,
    partition: Option<Shard>,
    /// Reports written before the bot's environment was recorded lack it.
    #[serde(default)]
    environment: crate::transport::environment::EnvNote,
    /// Reports written before the sandbox was recorded lack it: no layer
    /// confined those bots.
    #[serde(default = "crate::report::sandbox_not_recorded")]
    sandbox: crate::transport::sandbox::Layers,
    #[allow(dead_code)]
    totals: serde::de::IgnoredAny,
    scenarios: Vec<Scenario>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Generated {
    games: usize,
    seed: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Shard {
    shard: String,
    of: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    game: String,
    source: String,
    about: Option<String>,
    status: String,
    error: Option<String>,
    skip_reason: Option<String>,
    violations: Vec<Finding>,
    #[serde(default)]
    omitted: Vec<Counted>,
    transcript: Vec<Line>,
    stderr_bytes: u64,
    stderr_tail: String,
    duration_ms: u64,
    #[serde(default)]
    listened_ms: u64,
    replay: Option<String>,
    saved_to: Option<String>,
    /// The game drawn beside each line (`--pictures`, which grade asks of
    /// each bot's run), for scenarios that did not pass.
    #[serde(default)]
    frames: Vec<Frame>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Finding {
    rule: String,
    severity: String,
    spec: String,
    message: String,
    expected: Option<String>,
    actual: Option<String>,
    step: Option<Step>,
    board: Option<String>,
    timing: Option<Timing>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    file: String,
    line: u32,
    column: u32,
    index: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Timing {
    wall_ms: u64,
    own_ms: Option<u64>,
    limit_ms: u64,
    decided_by: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Counted {
    rule: String,
    severity: String,
    count: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    dir: String,
    text: String,
    ms: u64,
}

/// The run's description and results, from a JSON report's text.
pub fn results(json: &str) -> Result<(RunInfo, Vec<ScenarioResult>), String> {
    let report: Report = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let info = RunInfo {
        version: report.protocheck,
        game: report.game,
        bot: report.bot,
        generated: report.generated.map(|g| (g.games, g.seed)),
        strict: report.strict,
        partition: report.partition.map(|p| (p.shard, p.of)),
        workspace: None,
        environment: report.environment,
        sandbox: report.sandbox,
    };
    let results = report
        .scenarios
        .into_iter()
        .map(scenario)
        .collect::<Result<_, _>>()?;
    Ok((info, results))
}

fn scenario(s: Scenario) -> Result<ScenarioResult, String> {
    Ok(ScenarioResult {
        status: status(&s.status)?,
        violations: s
            .violations
            .into_iter()
            .map(finding)
            .collect::<Result<_, _>>()?,
        omitted: s
            .omitted
            .into_iter()
            .map(|o| {
                Ok(Omitted {
                    rule: intern(&o.rule),
                    severity: severity(&o.severity)?,
                    count: o.count,
                })
            })
            .collect::<Result<_, String>>()?,
        transcript: s
            .transcript
            .into_iter()
            .map(|l| {
                Ok(TranscriptLine {
                    dir: direction(&l.dir)?,
                    text: l.text,
                    ms: l.ms,
                })
            })
            .collect::<Result<_, String>>()?,
        name: s.name,
        game: s.game,
        source: s.source,
        about: s.about,
        error: s.error,
        skip_reason: s.skip_reason,
        stderr_bytes: s.stderr_bytes,
        stderr_tail: s.stderr_tail,
        duration_ms: s.duration_ms,
        listened_ms: s.listened_ms,
        replay: s.replay,
        saved_to: s.saved_to,
        frames: s.frames,
    })
}

fn finding(f: Finding) -> Result<Violation, String> {
    Ok(Violation {
        rule: intern(&f.rule),
        severity: severity(&f.severity)?,
        spec: Cow::Owned(f.spec),
        message: f.message,
        expected: f.expected,
        actual: f.actual,
        step: f.step.map(|s| StepRef {
            file: s.file,
            line: s.line,
            column: s.column,
            index: s.index,
        }),
        board: f.board,
        timing: f
            .timing
            .map(|t| {
                Ok::<_, String>(ReplyTiming {
                    wall_ms: t.wall_ms,
                    own_ms: t.own_ms,
                    limit_ms: t.limit_ms,
                    decided_by: match t.decided_by.as_str() {
                        "own-time" => TimeFigure::OwnTime,
                        "wall-time" => TimeFigure::WallTime,
                        "backstop" => TimeFigure::Backstop,
                        other => return Err(format!("unknown time figure `{other}`")),
                    },
                })
            })
            .transpose()?,
    })
}

fn status(text: &str) -> Result<Status, String> {
    Ok(match text {
        "passed" => Status::Passed,
        "failed" => Status::Failed,
        "error" => Status::Error,
        "skipped" => Status::Skipped,
        "interrupted" => Status::Interrupted,
        other => return Err(format!("unknown status `{other}`")),
    })
}

fn severity(text: &str) -> Result<Severity, String> {
    match text {
        "fail" => Ok(Severity::Fail),
        "warn" => Ok(Severity::Warn),
        other => Err(format!("unknown severity `{other}`")),
    }
}

fn direction(text: &str) -> Result<Direction, String> {
    match text {
        "sent" => Ok(Direction::Sent),
        "received" => Ok(Direction::Received),
        "note" => Ok(Direction::Note),
        other => Err(format!("unknown transcript direction `{other}`")),
    }
}

/// Rule ids are `&'static` in results; the few distinct ids of a grading
/// run are kept once each.
fn intern(id: &str) -> &'static str {
    static IDS: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut ids = IDS.lock().unwrap_or_else(|e| e.into_inner());
    let ids = ids.get_or_insert_with(HashSet::new);
    if let Some(known) = ids.get(id) {
        return known;
    }
    let leaked: &'static str = Box::leak(id.to_string().into_boxed_str());
    ids.insert(leaked);
    leaked
}

/// The plain-text report (no colour), as a single run prints it.
pub fn human(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let style = crate::report::human::Style {
        color: false,
        verbose: false,
        quiet: false,
    };
    crate::report::human::render(info, results, &style)
}

pub fn html(info: &RunInfo, results: &[ScenarioResult]) -> String {
    crate::report::html::render(info, results)
}

/// The JSON report `json` without the pictures the bot's run recorded for
/// its HTML page (they make it some thirty times larger), as a single
/// `--format json` run writes it; `None` when it has none, or when the
/// results do not give back `json` exactly (then it is kept as it is).
pub fn json_without_pictures(
    json: &str,
    info: &RunInfo,
    results: &[ScenarioResult],
) -> Option<String> {
    if results.iter().all(|r| r.frames.is_empty())
        || crate::report::json::render(info, results) != json
    {
        return None;
    }
    let lean: Vec<ScenarioResult> = results
        .iter()
        .map(|r| ScenarioResult {
            frames: Vec::new(),
            ..r.clone()
        })
        .collect();
    Some(crate::report::json::render(info, &lean))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON of a snapshot file (after its `---` header).
    fn snapshot(name: &str) -> String {
        let path = format!("{}/snapshots/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        text.splitn(3, "---\n").nth(2).unwrap().to_string()
    }

    #[test]
    fn json_reports_round_trip_through_the_results() {
        for name in [
            "kalah-fail-json.snap",
            "kalah-pass-json.snap",
            "kalah-skip-json.snap",
        ] {
            let json = snapshot(name);
            let (info, results) = results(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
            let again = crate::report::json::render(&info, &results);
            assert_eq!(again.trim_end(), json.trim_end(), "{name}");
        }
    }

    #[test]
    fn pictures_are_read_back_for_the_page_and_left_out_of_the_kept_report() {
        use crate::outcome::{Ink, Picture, Shape};
        let json = snapshot("kalah-fail-json.snap");
        let (info, mut plain) = results(&json).unwrap();
        assert_eq!(
            json_without_pictures(&json, &info, &plain),
            None,
            "no pictures: kept as it is"
        );
        let picture = Picture {
            width: 100,
            height: 50,
            shapes: vec![
                Shape::board(100, 50, 8),
                Shape::Text {
                    x: 1,
                    y: 2,
                    size: 3,
                    text: "7".into(),
                    ink: Ink::Named,
                },
            ],
            caption: Some("South to move".into()),
        };
        plain[0].frames = vec![crate::outcome::Frame {
            picture: Some(picture),
            findings: vec![0],
        }];
        let drawn = crate::report::json::render(&info, &plain);
        let (info, with_frames) = results(&drawn).unwrap();
        assert_eq!(
            with_frames[0].frames, plain[0].frames,
            "frames read back as written"
        );
        assert!(html(&info, &with_frames).contains("<figure class=\"board\""));
        let lean =
            json_without_pictures(&drawn, &info, &with_frames).expect("pictures to leave out");
        assert_eq!(lean.trim_end(), json.trim_end());
    }

    #[test]
    fn the_human_report_names_the_failing_rule() {
        let (info, results) = results(&snapshot("kalah-fail-json.snap")).unwrap();
        let text = human(&info, &results);
        assert!(text.contains("kalah.move.hole-range"), "{text}");
        assert!(html(&info, &results).contains("kalah.move.hole-range"));
    }

    #[test]
    fn a_report_from_before_the_sandbox_says_none_was_recorded() {
        let json = snapshot("kalah-pass-json.snap");
        let (info, _) = results(&json).unwrap();
        assert!(info.sandbox.line().starts_with("sandbox: "));
        let start = json
            .find("  \"sandbox\": {")
            .expect("the report has a sandbox");
        let end = start + json[start..].find("  },\n").expect("its end") + 5;
        let (old, results) = results(&format!("{}{}", &json[..start], &json[end..])).unwrap();
        assert_eq!(old.sandbox, crate::report::sandbox_not_recorded());
        assert!(
            human(&old, &results)
                .contains("sandbox: none (not recorded: the report predates protocheck's sandbox)")
        );
    }

    #[test]
    fn an_unknown_field_is_an_error_not_a_silent_loss() {
        let json = snapshot("kalah-pass-json.snap").replacen(
            "\"strict\"",
            "\"new_field\": 1, \"strict\"",
            1,
        );
        assert!(results(&json).unwrap_err().contains("new_field"));
    }
}
