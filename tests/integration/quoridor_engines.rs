//! protocheck against the sample QTP engines: the correct one passes the
//! built-in suite and generated games; each broken one is named by the rule
//! it breaks, with the right exit status.

use crate::common;
use common::*;

fn suite(engine: &str, extra: &[&str]) -> Outcome {
    let bot = bot(engine);
    let mut args = vec![
        "--game",
        "quoridor",
        "--timeout",
        "5s",
        "--exit-grace",
        "500ms",
    ];
    args.extend_from_slice(extra);
    args.push(&bot);
    run_json(&args, &[])
}

fn assert_fails(engine: &str, rule: &str) {
    let out = suite(engine, &[]);
    assert_eq!(
        out.code,
        1,
        "{engine}: expected exit 1; rules {:?}",
        out.rules()
    );
    assert!(
        out.has_rule(rule),
        "{engine}: expected {rule}, got {:?}\n{}",
        out.rules(),
        out.messages()
    );
}

fn assert_warns(engine: &str, rule: &str) {
    let out = suite(engine, &[]);
    assert_eq!(
        out.code,
        0,
        "{engine}: a warning alone must not fail the run: {:?}\n{}",
        out.rules(),
        out.messages()
    );
    assert!(
        out.has_rule(rule),
        "{engine}: expected {rule}, got {:?}",
        out.rules()
    );
    // `--strict` on the first scenario that showed the warning (not the
    // whole suite again): the warning there must fail the run.
    let shown = first_scenario_with(&out, rule);
    let strict = suite(engine, &["--filter", &shown, "--strict"]);
    assert_eq!(
        strict.code, 1,
        "{engine}: --strict must fail on {rule} ({shown})"
    );
}

/// The name of the first built-in (not generated) scenario of `out` that
/// reported `rule`.
fn first_scenario_with(out: &Outcome, rule: &str) -> String {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| {
            s["name"]
                .as_str()
                .is_some_and(|n| !n.starts_with("generated"))
        })
        .find(|s| {
            s["violations"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|v| v["rule"] == rule)
        })
        .and_then(|s| s["name"].as_str())
        .unwrap_or_else(|| panic!("no scenario reported {rule}"))
        .to_string()
}

/// Passes the default run with exactly `warnings` as the rule ids reported
/// (none: nothing at all, even under `--strict`).
fn assert_passes_with_only(engine: &str, warnings: &[&str]) {
    let out = suite(engine, &["--games", "3", "--seed", "5"]);
    assert_eq!(
        out.code,
        0,
        "{engine}: must pass: {:?}\n{}",
        out.rules(),
        out.messages()
    );
    let mut got = out.rules();
    got.sort();
    got.dedup();
    assert_eq!(got, warnings, "{engine}: rule ids\n{}", out.messages());
    // With warnings, `--strict` on the first scenario that showed one; a
    // clean engine's whole suite must still pass under `--strict`.
    let strict = match warnings.first() {
        Some(rule) => suite(
            engine,
            &["--filter", &first_scenario_with(&out, rule), "--strict"],
        ),
        None => suite(engine, &["--strict"]),
    };
    let code = if warnings.is_empty() { 0 } else { 1 };
    assert_eq!(strict.code, code, "{engine} --strict: {:?}", strict.rules());
}

#[test]
fn correct_engine_passes_the_suite_and_generated_games() {
    let out = suite("qtp-correct", &["--games", "9", "--seed", "4", "--strict"]);
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    assert!(
        out.statuses().len() >= 49,
        "suite plus 9 games: {}",
        out.statuses().len()
    );
}

#[test]
fn rule_violations() {
    assert_fails(
        "qtp-sidestep-through-wall",
        "quoridor.playmove.rejects-illegal",
    );
    assert_fails("qtp-no-wall-supply", "quoridor.playwall.supply");
    assert_fails("qtp-algebraic-walls", "quoridor.playwall.accepts-legal");
}

#[test]
fn state_after_commands() {
    assert_fails("qtp-sticky-winner", "quoridor.winner.reset");
    assert_fails("qtp-genmove-not-applied", "quoridor.genmove.applied");
    assert_fails("qtp-undo-one-only", "quoridor.undo.restores");
    assert_fails("qtp-failed-wall-costs", "quoridor.state.failed-unchanged");
    assert_fails("qtp-short-winner", "quoridor.winner.answer");
}

#[test]
fn input_handling() {
    assert_fails("qtp-uppercase-only", "quoridor.input.argument-case");
    assert_fails("qtp-keeps-cr", "quoridor.input.crlf");
    assert_fails("qtp-crash-on-empty-line", "quoridor.input.empty-line");
}

#[test]
fn framing() {
    assert_fails("qtp-error-without-status", "quoridor.framing.status");
    assert_fails("qtp-token-parser", "quoridor.framing.extra-response");
    assert_fails("qtp-list-commands-blank", "quoridor.list-commands.content");
    assert_warns("qtp-no-terminator", "quoridor.framing.no-terminator");
}

/// What the reference engine does where it departs from the document, each
/// in an otherwise correct engine: accepted, or a warning under its own id
/// (quoridor.md §9.1 #10, #11; decisions 5, 10 and 19).
#[test]
fn reference_engine_departures_pass() {
    assert_passes_with_only("qtp-known-command-false", &[]);
    assert_passes_with_only(
        "qtp-leading-whitespace",
        &["quoridor.input.leading-whitespace"],
    );
    assert_passes_with_only("qtp-glued-comment", &["quoridor.input.glued-comment"]);
    // The `# thinking` line is a warning of its own; the forced-move
    // scenarios' `matches` judge the response after it.
    assert_passes_with_only("qtp-thinking-comment", &["io.unexpected-output"]);
}

/// The referee reads past every line that does not start with `=`
/// (`readMove`, `readOK`, `readWinner`) and plays on: a debug line before
/// an answer, or one written after it that arrives while the next response
/// is due, is stray output (warn), never a response without status
/// (quoridor.md §6, decision 10).
#[test]
fn stray_lines_before_or_after_an_answer_are_warnings() {
    for engine in ["qtp-stray-before-answer", "qtp-stray-after-answer"] {
        assert_passes_with_only(engine, &["io.unexpected-output"]);
        let out = suite(engine, &["--filter", "genmove-white-twice"]);
        assert!(
            out.messages().contains("stray line before the response"),
            "{engine}: {}",
            out.messages()
        );
    }
}

/// A crash on malformed arguments names the crash, even on the session's
/// first command: not the `-seed` arguments the engine was started with.
#[test]
fn a_crash_on_a_malformed_command_is_not_blamed_on_the_seed_argument() {
    let out = suite("qtp-crash-on-bare-known-command", &[]);
    assert_eq!(out.code, 1, "{:?}", out.rules());
    assert_eq!(
        out.rules(),
        ["quoridor.syntax.malformed"],
        "{}",
        out.messages()
    );
    assert!(
        out.messages()
            .contains("right after protocheck sent `known_command`"),
        "{}",
        out.messages()
    );
}

#[test]
fn a_split_multi_line_response_fails() {
    let out = suite("qtp-showboard-split", &[]);
    assert_eq!(out.code, 1, "{:?}", out.rules());
    let report = &out.report["scenarios"];
    let showboard = report
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "showboard-empty")
        .expect("showboard-empty ran");
    assert_eq!(showboard["status"], "failed");
    assert_eq!(
        showboard["violations"][0]["rule"], "quoridor.framing.split-response",
        "{showboard}"
    );
    // The rest of the diagram belongs to the response, not stray output.
    assert!(!out.has_rule("io.unexpected-output"), "{:?}", out.rules());
    assert!(out.has_rule("quoridor.framing.split-response"));
    let listed = suite("qtp-list-commands-blank", &[]);
    assert!(
        listed.has_rule("quoridor.framing.split-response"),
        "{:?}",
        listed.rules()
    );
}

#[test]
fn process_and_texts() {
    assert_fails("qtp-no-exit-on-quit", "io.no-exit");
    assert_warns("qtp-capital-errors", "quoridor.error.text");
    assert_warns("qtp-stderr-equals", "quoridor.process.stderr-response-like");
}

#[test]
fn a_failing_generated_game_is_saved_and_replays() {
    let dir = std::env::temp_dir().join(format!(
        "protocheck-qtp-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    let bot = bot("qtp-genmove-not-applied");
    let out = run_json(
        &[
            "--game",
            "quoridor",
            "--filter",
            "generated",
            "--games",
            "6",
            "--seed",
            "2",
            "--save-failures",
            dir.to_str().unwrap(),
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{:?}", out.rules());
    let failed = out.report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["status"] == "failed")
        .expect("a failing game")
        .clone();
    let saved = failed["saved_to"].as_str().unwrap().to_string();
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("send: genmove") && !text.contains("opponent:"),
        "QTP replays are plain commands:\n{text}"
    );
    let again = run_json(&["--game", "quoridor", "--scenarios", &saved, &bot], &[]);
    assert_eq!(again.code, 1);
    let first_rule =
        |o: &serde_json::Value| o["violations"][0]["rule"].as_str().unwrap().to_string();
    assert_eq!(
        first_rule(&again.report["scenarios"][0]),
        first_rule(&failed)
    );
}

/// The finding for one scenario: (rule, severity, message) of each violation.
fn findings_of(out: &Outcome, scenario: &str) -> Vec<(String, String, String)> {
    let s = out.report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == scenario)
        .unwrap_or_else(|| panic!("{scenario} ran"));
    s["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["rule"].as_str().unwrap().to_string(),
                v["severity"].as_str().unwrap().to_string(),
                v["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn an_engine_leaving_on_quit_without_answering_breaks_the_quit_rule() {
    let out = suite("qtp-quit-without-response", &["--filter", "quit"]);
    assert_eq!(out.code, 1, "{:?}", out.rules());
    let found = findings_of(&out, "quit");
    assert_eq!(found.len(), 1, "{found:?}");
    let (rule, severity, message) = &found[0];
    assert_eq!(rule, "quoridor.quit.response");
    assert_eq!(severity, "fail");
    // The transcript shows `> quit`: the message says it was sent, and that
    // no response came before the exit; never "before `quit`".
    assert!(
        message.starts_with(
            "`quit` was sent, and the engine exited (exit status 0) without answering it"
        ),
        "{message}"
    );
    assert!(!message.contains("before `quit`"), "{message}");
    // Without `quit` the engine is qtp-correct: EOF is handled.
    assert!(findings_of(&out, "eof-without-quit").is_empty());
}
