//! Bots that flood valid output: each gets a verdict with a rule id, the run
//! ends, the report stays small, and no bot process outlives the run. The
//! test deadline in `run_json` is generous; nothing here asserts speed.

use crate::common;

use common::{bot, live_processes_with, marker, run_json};

/// The JSON report of a whole run must stay under this.
const REPORT_LIMIT: usize = 1024 * 1024;

fn report_size(o: &common::Outcome) -> usize {
    serde_json::to_string_pretty(&o.report).unwrap().len()
}

#[test]
fn a_kalah_bot_spamming_valid_moves_is_stopped() {
    let m = marker("spam-kalah");
    let o = run_json(
        &[
            "--game",
            "kalah",
            "--filter",
            "south-first-move",
            &bot("hostile-spam-kalah"),
        ],
        &[("PROTOCHECK_TEST_MARKER", &m)],
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.has_rule("io.output-flood"), "{:?}", o.rules());
    // The first out-of-turn line keeps its own diagnosis.
    assert_eq!(o.rules()[0], "kalah.turn.no-extra-turn");
    let scenario = &o.report["scenarios"][0];
    let omitted = scenario["omitted"].as_array().expect("omitted findings");
    assert_eq!(omitted[0]["rule"], "kalah.turn.no-extra-turn");
    assert!(omitted[0]["count"].as_u64().unwrap() > 1000, "{omitted:?}");
    let transcript = scenario["transcript"].as_array().unwrap();
    assert!(
        transcript
            .iter()
            .any(|l| l["text"].as_str().unwrap().contains("the same line")),
        "repeated lines are folded"
    );
    assert!(report_size(&o) < REPORT_LIMIT, "{} bytes", report_size(&o));
    assert!(live_processes_with(&m).is_empty());
}

#[test]
fn a_kalah_spammer_through_the_whole_suite_gives_a_small_report() {
    let o = run_json(
        &["--game", "kalah", "--jobs", "2", &bot("hostile-spam-kalah")],
        &[],
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    let floods = o.rules().iter().filter(|r| *r == "io.output-flood").count();
    // Every scenario of the default (7×7) run in which the bot gets to
    // speak is flooded; a few end before it can.
    let ran = o.report["totals"]["passed"].as_u64().unwrap()
        + o.report["totals"]["failed"].as_u64().unwrap();
    assert!(
        ran >= 15 && floods as u64 + 3 >= ran,
        "{floods} floods in {:?}",
        o.report["totals"]
    );
    assert!(report_size(&o) < REPORT_LIMIT, "{} bytes", report_size(&o));
}

#[test]
fn a_qtp_engine_repeating_its_last_response_forever_is_stopped() {
    let m = marker("spam-qtp");
    let o = run_json(
        &[
            "--game",
            "quoridor",
            "--filter",
            "eof-without-quit",
            &bot("hostile-spam-qtp"),
        ],
        &[("PROTOCHECK_TEST_MARKER", &m)],
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.has_rule("io.output-flood"), "{:?}", o.rules());
    // What it writes after its input was closed answers no command: the
    // end-of-input rule (once), not a response out of turn.
    assert_eq!(o.rules()[0], "quoridor.process.eof");
    assert!(
        !o.has_rule("quoridor.framing.extra-response"),
        "{:?}",
        o.rules()
    );
    assert!(o.rules().len() <= 10, "{:?}", o.rules());
    assert!(report_size(&o) < REPORT_LIMIT, "{} bytes", report_size(&o));
    assert!(live_processes_with(&m).is_empty());
}

#[test]
fn the_qtp_spammer_passes_every_scenario_that_does_not_close_its_input() {
    // Before EOF it is the conforming engine: the bounds must not touch it.
    let o = run_json(
        &[
            "--game",
            "quoridor",
            "--jobs",
            "2",
            &bot("hostile-spam-qtp"),
        ],
        &[],
    );
    let names: Vec<&str> = o.report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"quit"), "{names:?}");
    for s in o.report["scenarios"].as_array().unwrap() {
        let expected = if s["name"] == "eof-without-quit" {
            "failed"
        } else {
            "passed"
        };
        assert_eq!(s["status"], expected, "{}", s["name"]);
    }
}

#[test]
fn the_output_byte_cap_stops_a_bot_with_its_own_rule() {
    let o = run_json(
        &[
            "--game",
            "kalah",
            "--filter",
            "south-first-move",
            "--max-output",
            "2k",
            &bot("hostile-spam-kalah"),
        ],
        &[],
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.has_rule("io.output-limit"), "{:?}", o.rules());
    assert!(!o.has_rule("io.output-flood"), "{:?}", o.rules());
    assert!(o.messages().contains("2,048 bytes"), "{}", o.messages());
}

#[test]
fn the_output_cap_does_not_touch_a_correct_bot() {
    // A whole game is a few KiB: the default cap is far away, and a tight
    // one that still holds it changes nothing.
    let o = run_json(
        &[
            "--game",
            "kalah",
            "--filter",
            "whole-game",
            "--max-output",
            "64k",
            &bot("kalah-correct"),
        ],
        &[],
    );
    assert_eq!(o.code, 0, "{:?} {}", o.rules(), o.stderr);
}

#[test]
fn a_bad_max_output_is_a_usage_error() {
    let o = run_json(
        &[
            "--game",
            "kalah",
            "--max-output",
            "lots",
            &bot("kalah-correct"),
        ],
        &[],
    );
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("not a size"), "{}", o.stderr);
}
