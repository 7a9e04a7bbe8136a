//! The human report's own tests: skips, quiet warnings, boards, the
//! environment line.

use super::*;

fn skipped(name: &str, reason: Option<&str>) -> ScenarioResult {
    ScenarioResult {
        skip_reason: reason.map(str::to_string),
        ..ScenarioResult::new(
            name,
            "kalah",
            &format!("builtin:kalah/{name}.yaml"),
            Status::Skipped,
        )
    }
}

fn info() -> RunInfo {
    RunInfo {
        version: "0".into(),
        game: "kalah".into(),
        bot: "./bot".into(),
        generated: None,
        strict: false,
        partition: None,
        workspace: None,
        environment: Default::default(),
        sandbox: crate::transport::sandbox::Layers::none("--sandbox off"),
        score: None,
        coverage: None,
    }
}

const SIZES: &str = "a real match is always Kalah(7,7); run with --all-sizes";

#[test]
fn skips_share_a_line_per_reason_and_a_lone_skip_keeps_its_name() {
    let results = [
        skipped("a", Some(&format!("Kalah(1,4) board; {SIZES}"))),
        skipped("b", Some(&format!("Kalah(6,4) board; {SIZES}"))),
        skipped("c", Some(&format!("Kalah(6,4) board; {SIZES}"))),
        skipped("d", Some("not run (--fail-fast)")),
    ];
    let text = render(&info(), &results, &Style::default());
    let skips: Vec<&str> = text.lines().filter(|l| l.starts_with("SKIP")).collect();
    assert_eq!(
        skips,
        [
            "SKIP  3 scenarios (Kalah(1,4) board, Kalah(6,4) board; a real match is always Kalah(7,7); run with --all-sizes; -v lists them)",
            "SKIP  d  (not run (--fail-fast))",
        ],
        "{text}"
    );
    let verbose = render(
        &info(),
        &results,
        &Style {
            verbose: true,
            ..Style::default()
        },
    );
    assert_eq!(verbose.lines().filter(|l| l.starts_with("SKIP")).count(), 4);
    let quiet = render(
        &info(),
        &results,
        &Style {
            quiet: true,
            ..Style::default()
        },
    );
    assert_eq!(
        quiet.trim(),
        "sandbox: none (--sandbox off)\n0 passed, 0 failed, 4 skipped",
        "{quiet}"
    );
}

static WARNED: crate::verdict::RuleInfo = crate::verdict::RuleInfo {
    id: "kalah.test.warned",
    severity: Severity::Warn,
    spec: "a rule that only warns",
};
static FAILED: crate::verdict::RuleInfo = crate::verdict::RuleInfo {
    id: "kalah.test.failed",
    severity: Severity::Fail,
    spec: "a rule that fails",
};

fn with(name: &str, status: Status, findings: Vec<Violation>) -> ScenarioResult {
    let mut r = ScenarioResult::new(name, "kalah", &format!("builtin:kalah/{name}.yaml"), status);
    r.violations = findings;
    r
}

fn drawn(mut v: Violation, board: &str) -> Violation {
    v.board = Some(board.to_string());
    v
}

#[test]
fn quiet_lists_each_warning_of_a_passing_scenario_on_one_line() {
    let long = "x".repeat(200);
    let results = [
        with(
            "warned-twice",
            Status::Passed,
            vec![
                WARNED.violation("first warning\nits second line"),
                WARNED.violation(long.clone()),
            ],
        ),
        with("clean", Status::Passed, vec![]),
        with(
            "failing",
            Status::Failed,
            vec![
                FAILED.violation("it failed"),
                WARNED.violation("and warned"),
            ],
        ),
    ];
    let quiet = render(
        &info(),
        &results,
        &Style {
            quiet: true,
            ..Style::default()
        },
    );
    let warn_lines: Vec<&str> = quiet.lines().filter(|l| l.starts_with("WARN")).collect();
    assert_eq!(
        warn_lines,
        [
            "WARN  warned-twice  kalah.test.warned: first warning".to_string(),
            format!(
                "WARN  warned-twice  kalah.test.warned: {}…",
                "x".repeat(120)
            ),
        ],
        "{quiet}"
    );
    // The failing scenario's warning is in its details, not listed again.
    assert!(quiet.contains("    and warned\n"), "{quiet}");
    assert!(!quiet.contains("clean"), "{quiet}");
    assert!(
        quiet.ends_with("2 passed, 1 failed, 3 warnings\n"),
        "{quiet}"
    );
}

#[test]
fn a_board_is_drawn_for_a_failure_and_for_a_warning_only_with_verbose() {
    let results = [
        with(
            "warned",
            Status::Passed,
            vec![drawn(WARNED.violation("a warning"), "WARNING-BOARD")],
        ),
        with(
            "failing",
            Status::Failed,
            vec![drawn(FAILED.violation("a failure"), "FAILURE-BOARD")],
        ),
    ];
    let plain = render(&info(), &results, &Style::default());
    assert!(plain.contains("FAILURE-BOARD"), "{plain}");
    assert!(plain.contains("    a warning\n"), "{plain}");
    assert!(!plain.contains("WARNING-BOARD"), "{plain}");
    let verbose = render(
        &info(),
        &results,
        &Style {
            verbose: true,
            ..Style::default()
        },
    );
    assert!(verbose.contains("WARNING-BOARD"), "{verbose}");
    assert!(verbose.contains("FAILURE-BOARD"), "{verbose}");
}

#[test]
fn the_environment_note_stands_above_the_summary_also_when_quiet() {
    let mut info = info();
    info.environment.removed = vec!["PYTHONUNBUFFERED".into()];
    let quiet = render(
        &info,
        &[with("clean", Status::Passed, vec![])],
        &Style {
            quiet: true,
            ..Style::default()
        },
    );
    assert_eq!(
        quiet.trim(),
        "sandbox: none (--sandbox off)\nbot environment: PYTHONUNBUFFERED left out (it changes how a runtime buffers, encodes or adds to its output; --pass-env PYTHONUNBUFFERED keeps it)\n1 passed, 0 failed",
    );
}
