//! `protocheck record --from-transcript`: a JSON report's transcript, a
//! plain `> `/`< ` log and a ManKalah.jar log each become a scenario that
//! lints clean and, replayed against the bot the transcript came from,
//! reaches the same verdicts. Bad input is an exit 2 with file and line,
//! never a panic.

use crate::common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn protocheck() -> Command {
    Command::new(env!("CARGO_BIN_EXE_protocheck"))
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("protocheck-record-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `(status, failing rule ids)` of each scenario of a JSON report.
fn verdicts(report: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let rules = s["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    format!(
                        "{} {}",
                        v["severity"].as_str().unwrap(),
                        v["rule"].as_str().unwrap()
                    )
                })
                .collect();
            (s["status"].as_str().unwrap().to_string(), rules)
        })
        .collect()
}

fn record_from(
    game: &str,
    transcript: &Path,
    output: &Path,
    extra: &[&str],
) -> std::process::Output {
    protocheck()
        .args(["record", "--game", game, "--from-transcript"])
        .arg(transcript)
        .arg("--output")
        .arg(output)
        .args(extra)
        .output()
        .unwrap()
}

fn lints_clean(game: &str, file: &Path) {
    let out = protocheck()
        .args(["lint", "--game", game])
        .arg(file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(file).unwrap()
    );
}

fn replay(game: &str, bot_name: &str, file: &Path) -> Outcome {
    run_json(
        &[
            "--game",
            game,
            &bot(bot_name),
            "--scenarios",
            file.to_str().unwrap(),
        ],
        &[],
    )
}

/// Run `filter` of the built-in suite, convert its transcript, replay it.
fn round_trip(game: &str, bot_name: &str, filter: &str, dir: &Path) -> (Outcome, Outcome) {
    let original = run_json(&["--game", game, &bot(bot_name), "--filter", filter], &[]);
    assert_eq!(
        original.report["scenarios"].as_array().unwrap().len(),
        1,
        "{filter}"
    );
    let report = dir.join(format!("{filter}.json"));
    std::fs::write(&report, original.report.to_string()).unwrap();
    let scenario = dir.join(format!("{filter}.yaml"));
    let out = record_from(game, &report, &scenario, &["--force"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lints_clean(game, &scenario);
    let replayed = replay(game, bot_name, &scenario);
    (original, replayed)
}

#[test]
fn json_transcripts_replay_to_the_same_verdicts() {
    let dir = temp_dir("json");
    for (game, bot_name, filter) in [
        ("kalah", "kalah-correct", "north-opening-1"),
        ("kalah", "kalah-zero-based", "south-first-move"),
        ("quoridor", "qtp-correct", "jump-straight"),
        (
            "quoridor",
            "qtp-sidestep-through-wall",
            "jump-wall-between-and-behind",
        ),
    ] {
        let (original, replayed) = round_trip(game, bot_name, filter, &dir);
        assert_eq!(
            verdicts(&original.report),
            verdicts(&replayed.report),
            "{game} {bot_name} {filter}:\n{}\n---\n{}",
            findings(&original.report).join("\n"),
            findings(&replayed.report).join("\n")
        );
    }
    // The failing ones did fail: the round trip is not trivially equal.
    let (original, replayed) = round_trip("kalah", "kalah-zero-based", "south-first-move", &dir);
    assert!(original.has_rule("kalah.move.hole-range"));
    assert!(replayed.has_rule("kalah.move.hole-range"));
    let (original, replayed) = round_trip(
        "quoridor",
        "qtp-sidestep-through-wall",
        "jump-wall-between-and-behind",
        &dir,
    );
    assert!(original.has_rule("quoridor.playmove.rejects-illegal"));
    assert!(replayed.has_rule("quoridor.playmove.rejects-illegal"));
}

#[test]
fn a_json_report_of_many_scenarios_gives_the_one_named() {
    let dir = temp_dir("json-named");
    let original = run_json(
        &[
            "--game",
            "kalah",
            &bot("kalah-correct"),
            "--filter",
            "north-opening-*",
        ],
        &[],
    );
    let report = dir.join("all.json");
    std::fs::write(&report, original.report.to_string()).unwrap();
    let scenario = dir.join("two.yaml");
    let out = record_from(
        "kalah",
        &report,
        &scenario,
        &["--scenario", "north-opening-2"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&scenario).unwrap();
    assert!(text.contains("scenario `north-opening-2`"), "{text}");
    // North's opening 2 is South's hole 2 in the first CHANGE.
    assert!(text.contains("send: CHANGE;2;"), "{text}");
    lints_clean("kalah", &scenario);
    let replayed = replay("kalah", "kalah-correct", &scenario);
    assert_eq!(replayed.statuses(), vec!["passed"]);
    let missing = record_from(
        "kalah",
        &report,
        &dir.join("x.yaml"),
        &["--scenario", "nope"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no scenario named `nope`"));
}

#[test]
fn plain_logs_of_both_games_replay_to_the_same_verdicts() {
    let dir = temp_dir("plain");
    // A Kalah log as a user pastes it from the human report (with stamps).
    let original = run_json(
        &[
            "--game",
            "kalah",
            &bot("kalah-correct"),
            "--filter",
            "north-opening-3",
        ],
        &[],
    );
    let lines: Vec<String> = original.report["scenarios"][0]["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let mark = match l["dir"].as_str().unwrap() {
                "sent" => '>',
                "received" => '<',
                _ => '#',
            };
            format!("  {:>6}ms {mark} {}", l["ms"], l["text"].as_str().unwrap())
        })
        .collect();
    let log = dir.join("kalah.log");
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let scenario = dir.join("kalah.yaml");
    let out = record_from("kalah", &log, &scenario, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lints_clean("kalah", &scenario);
    let replayed = replay("kalah", "kalah-correct", &scenario);
    assert_eq!(verdicts(&original.report), verdicts(&replayed.report));

    // A QTP session written by hand, responses ended by their empty line.
    let log = dir.join("qtp.log");
    std::fs::write(
        &log,
        "> name\n< = qtp-correct\n<\n> boardsize 9\n< =\n<\n> clear_board\n< =\n<\n> walls 10\n< =\n<\n\
         > playmove white E2\n< =\n<\n> genmove black\n< = E8\n<\n> playmove black E5\n< ? illegal move\n<\n\
         > quit\n< =\n<\n",
    )
    .unwrap();
    let scenario = dir.join("qtp.yaml");
    let out = record_from("quoridor", &log, &scenario, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&scenario).unwrap();
    assert!(
        text.contains("reply: = E8") && text.contains("expect: exit"),
        "{text}"
    );
    lints_clean("quoridor", &scenario);
    let replayed = replay("quoridor", "qtp-correct", &scenario);
    assert_eq!(
        replayed.statuses(),
        vec!["passed"],
        "{}",
        findings(&replayed.report).join("\n")
    );
    // The same log against a bot that answers differently fails on the pin.
    let other = replay("quoridor", "qtp-sidestep-through-wall", &scenario);
    assert_eq!(other.statuses(), vec!["failed"]);
}

#[test]
fn mankalah_logs_replay_against_the_bot_that_played() {
    let dir = temp_dir("mankalah");
    for player in ["1", "2"] {
        let log = fixture(&format!("record/mankalah-correct-as-player{player}.log"));
        let scenario = dir.join(format!("p{player}.yaml"));
        let out = record_from("kalah", Path::new(&log), &scenario, &["--player", player]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&scenario).unwrap();
        assert!(text.contains("expect: exit"), "{text}");
        if player == "2" {
            // ManKalah's `Move: Swap` by the bot, then its sides change.
            assert!(text.contains("reply: SWAP"), "{text}");
        }
        lints_clean("kalah", &scenario);
        let replayed = replay("kalah", "kalah-correct", &scenario);
        assert_eq!(
            replayed.statuses(),
            vec!["passed"],
            "{}",
            findings(&replayed.report).join("\n")
        );
        // A bot that plays otherwise is caught by the pinned moves.
        let other = replay("kalah", "kalah-zero-based", &scenario);
        assert_eq!(other.statuses(), vec!["failed"]);
    }
}

fn assert_usage_error(out: &std::process::Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(needle), "expected `{needle}` in:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_input_is_exit_2_with_file_and_line() {
    let dir = temp_dir("bad");
    let out = dir.join("out.yaml");
    let log = dir.join("bad.log");
    std::fs::write(&log, "> START;South\n< MOVE;1\nMOVE;2\n").unwrap();
    assert_usage_error(
        &record_from("kalah", &log, &out, &[]),
        &format!("{}:3: expected `> `", log.display()),
    );
    assert!(!out.exists(), "nothing is written for bad input");

    std::fs::write(&log, "> START;South\n< MOVE;1\n> START;North\n").unwrap();
    assert_usage_error(
        &record_from("kalah", &log, &out, &[]),
        &format!("{}:3: `START;North` cannot be sent here", log.display()),
    );

    let missing = dir.join("missing.log");
    assert_usage_error(
        &record_from("kalah", &missing, &out, &[]),
        &format!("cannot read {}", missing.display()),
    );

    std::fs::write(&log, [0xff, 0xfe, b'\n']).unwrap();
    assert_usage_error(&record_from("kalah", &log, &out, &[]), "not UTF-8");

    let json = dir.join("bad.json");
    std::fs::write(&json, "{\"scenarios\": [\n  {\"name\": 1,,\n").unwrap();
    assert_usage_error(
        &record_from("kalah", &json, &out, &[]),
        &format!("{}:2:", json.display()),
    );

    let mk = dir.join("mk.log");
    std::fs::write(&mk, "Move: South - 1\nMove: South - x\n").unwrap();
    assert_usage_error(
        &record_from("kalah", &mk, &out, &[]),
        &format!("{}:2: `x` is not a hole number", mk.display()),
    );

    assert_usage_error(
        &record_from("kalha", &log, &out, &[]),
        "unknown game `kalha` (did you mean `kalah`?)",
    );

    // No bot and no transcript; an output that exists.
    let no_bot = protocheck()
        .args(["record", "--game", "kalah", "--output"])
        .arg(&out)
        .output()
        .unwrap();
    assert_usage_error(&no_bot, "no bot given");
    std::fs::write(&out, "keep me").unwrap();
    let exists = protocheck()
        .args([
            "record",
            "--game",
            "kalah",
            &bot("kalah-correct"),
            "--output",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_usage_error(&exists, "exists (use --force");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
}

#[test]
fn a_log_the_reference_engine_prints_now_replays_against_the_bot_that_played() {
    let Ok(dir) = std::env::var("PROTOCHECK_REFERENCE_BOTS") else {
        eprintln!(
            "did not run: set PROTOCHECK_REFERENCE_BOTS to the folder holding ManKalah.jar and MKRefAgent.jar"
        );
        return;
    };
    let refs = Path::new(&dir);
    if Command::new("java").arg("-version").output().is_err() {
        eprintln!("did not run: no `java` to run ManKalah.jar");
        return;
    }
    let out = Command::new("java")
        .arg("-jar")
        .arg(refs.join("ManKalah.jar"))
        .arg(bot("kalah-correct"))
        .arg(format!(
            "java -jar {}",
            refs.join("MKRefAgent.jar").display()
        ))
        .output()
        .unwrap();
    let log_text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(log_text.contains("Move: South - 1"), "{log_text}");
    let tmp = temp_dir("mankalah-live");
    let log = tmp.join("mankalah.log");
    std::fs::write(&log, &log_text).unwrap();
    let scenario = tmp.join("live.yaml");
    let made = record_from("kalah", &log, &scenario, &[]);
    assert_eq!(
        made.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    lints_clean("kalah", &scenario);
    let replayed = replay("kalah", "kalah-correct", &scenario);
    assert_eq!(
        replayed.statuses(),
        vec!["passed"],
        "{}",
        findings(&replayed.report).join("\n")
    );
}
