//! Every rule of the grading policy, and its edges.

use super::policy::{Policy, WarningWord, Warnings};
use super::*;
use crate::games::EndResult;
use crate::outcome::{ScenarioResult, Status};
use crate::verdict::{RuleInfo, Severity};

static BROKEN: RuleInfo = RuleInfo {
    id: "kalah.move.hole-range",
    severity: Severity::Fail,
    spec: "a hole in range",
};
static WARNED: RuleInfo = RuleInfo {
    id: "io.no-exit",
    severity: Severity::Warn,
    spec: "exits",
};

fn scenario(name: &str, status: Status, about: &str) -> ScenarioResult {
    let mut r = ScenarioResult::new(name, "kalah", "builtin:kalah/x.yaml", status);
    r.about = Some(about.to_string());
    if status == Status::Failed {
        r.violations.push(BROKEN.violation("hole 9"));
    }
    r
}

fn warned(name: &str, warnings: usize) -> ScenarioResult {
    let mut r = scenario(name, Status::Passed, "");
    for _ in 0..warnings {
        r.violations.push(WARNED.violation("still running"));
    }
    r
}

fn game(index: usize, status: Status, ending: Option<EndResult>) -> ScenarioResult {
    let mut r = scenario(&format!("generated-{index}"), status, "");
    r.source = "generated (seed 7)".into();
    r.ending = ending;
    r
}

fn policy(toml: &str) -> Policy {
    Policy::from_toml(toml).unwrap().expect("a [grading] table")
}

fn points(s: &Score) -> (f64, f64) {
    (s.score, s.max_score)
}

#[test]
fn without_a_policy_each_scenario_that_passed_is_one_point() {
    let results = [
        scenario("a", Status::Passed, ""),
        scenario("b", Status::Failed, ""),
        scenario("c", Status::Skipped, ""),
        scenario("d", Status::Error, ""),
        warned("e", 2),
    ];
    let s = score(&Policy::default(), "default", &results, &[]);
    assert_eq!(points(&s), (2.0, 5.0));
    assert_eq!(s.tests.len(), 5);
    assert_eq!(
        s.tests[1].lost.as_deref(),
        Some("failed (kalah.move.hole-range)")
    );
    assert_eq!(s.tests[2].lost.as_deref(), Some("not run"));
    assert_eq!(s.line(), "score: 2 / 5");
    assert_eq!(Policy::from_toml("game = \"kalah\"\n").unwrap(), None);
    assert_eq!(policy("[grading]\n"), Policy::default());
}

#[test]
fn scenarios_outside_the_run_are_not_counted_at_all() {
    let results = [
        scenario("a", Status::Passed, ""),
        scenario("board-6x4", Status::Skipped, ""),
    ];
    let s = score(&Policy::default(), "default", &results, &[true, false]);
    assert_eq!(points(&s), (1.0, 1.0));
    assert_eq!(s.tests.len(), 1);
}

#[test]
fn points_per_scenario_scale_every_ungrouped_scenario() {
    let p = policy("[grading]\npoints-per-scenario = 2.5\n");
    let results = [
        scenario("a", Status::Passed, ""),
        scenario("b", Status::Failed, ""),
    ];
    assert_eq!(points(&score(&p, "f", &results, &[])), (2.5, 5.0));
}

#[test]
fn warnings_cost_nothing_fail_the_scenario_or_take_a_share_off() {
    let results = [warned("one", 1), warned("three", 3), warned("none", 0)];
    let ignore = policy("[grading]\nwarnings = \"ignore\"\n");
    assert_eq!(ignore.warnings, Warnings::Named(WarningWord::Ignore));
    assert_eq!(points(&score(&ignore, "f", &results, &[])), (3.0, 3.0));
    let fail = policy("[grading]\nwarnings = \"fail\"\n");
    let s = score(&fail, "f", &results, &[]);
    assert_eq!(points(&s), (1.0, 3.0));
    assert_eq!(
        s.tests[0].lost.as_deref(),
        Some("1 warning, counted as a failure")
    );
    let deduct = policy("[grading]\nwarnings = 0.4\n");
    // 1 - 0.4 = 0.6; 1 - 1.2 is floored at 0; 1.
    assert_eq!(points(&score(&deduct, "f", &results, &[])), (1.6, 3.0));
    let e = Policy::from_toml("[grading]\nwarnings = 2.0\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("0 to 1"), "{e}");
    assert!(Policy::from_toml("[grading]\nwarnings = \"forgive\"\n").is_err());
}

#[test]
fn a_group_shares_its_points_among_its_scenarios() {
    let p = policy(
        "[grading]\n[[grading.group]]\nname = \"openings\"\nscenarios = [\"opening-*\"]\npoints = 9\n",
    );
    let results = [
        scenario("opening-1", Status::Passed, ""),
        scenario("opening-2", Status::Failed, ""),
        scenario("opening-3", Status::Passed, ""),
        scenario("endgame", Status::Passed, ""),
    ];
    let s = score(&p, "f", &results, &[]);
    assert_eq!(points(&s), (7.0, 10.0));
    assert_eq!(s.tests[0].name, "openings");
    assert_eq!(
        s.tests[0].scenarios,
        ["opening-1", "opening-2", "opening-3"]
    );
    assert_eq!((s.tests[0].score, s.tests[0].max_score), (6.0, 9.0));
    assert_eq!(
        s.tests[0].lost.as_deref(),
        Some("opening-2: failed (kalah.move.hole-range)")
    );
    assert_eq!(s.tests[1].name, "endgame");
}

#[test]
fn a_group_by_rule_takes_the_scenarios_whose_about_names_it() {
    let p = policy(
        "[grading]\n[[grading.group]]\nname = \"moves\"\nrules = [\"kalah.move.*\"]\npoints = 4\n",
    );
    let results = [
        scenario(
            "x",
            Status::Passed,
            "Plays a hole. Rules: kalah.move.hole-range, io.flush.",
        ),
        scenario("y", Status::Failed, "Rules: kalah.move.empty-hole."),
        scenario("z", Status::Passed, "Rules: kalah.swap.when."),
    ];
    let s = score(&p, "f", &results, &[]);
    assert_eq!(s.tests[0].scenarios, ["x", "y"]);
    assert_eq!(points(&s), (3.0, 5.0));
    assert_eq!(scenario_rules("About. Rules: a.b, c.d."), ["a.b", "c.d"]);
}

#[test]
fn a_group_by_rule_takes_the_scenarios_whose_rules_field_names_it() {
    let p = policy(
        "[grading]\n[[grading.group]]\nname = \"moves\"\nrules = [\"kalah.move.*\"]\npoints = 4\n",
    );
    let mut named = scenario("x", Status::Passed, "Plays a hole.");
    named.rules = vec!["kalah.move.hole-range".into()];
    let results = [named, scenario("z", Status::Passed, "Plays a swap.")];
    let s = score(&p, "f", &results, &[]);
    assert_eq!(s.tests[0].scenarios, ["x"]);
}

/// Overlapping groups: the first group in the file that takes a scenario
/// has it, as the first matching arm of a `match`: the file reads top to
/// bottom, a narrow group goes before a wide one, and a scenario never
/// scores twice.
#[test]
fn overlapping_groups_the_first_in_the_file_wins() {
    let p = policy(
        "[grading]\n\
         [[grading.group]]\nname = \"swap\"\nscenarios = [\"opening-swap*\"]\npoints = 5\n\
         [[grading.group]]\nname = \"openings\"\nscenarios = [\"opening-*\"]\npoints = 2\n",
    );
    let results = [
        scenario("opening-swap", Status::Passed, ""),
        scenario("opening-plain", Status::Passed, ""),
    ];
    let s = score(&p, "f", &results, &[]);
    assert_eq!(s.tests[0].scenarios, ["opening-swap"]);
    assert_eq!(s.tests[1].scenarios, ["opening-plain"]);
    assert_eq!(points(&s), (7.0, 7.0));
}

#[test]
fn an_empty_group_adds_nothing_and_says_why() {
    let p = policy(
        "[grading]\n[[grading.group]]\nname = \"boards\"\nscenarios = [\"board-*\"]\npoints = 10\n",
    );
    let s = score(&p, "f", &[scenario("a", Status::Passed, "")], &[]);
    assert_eq!(points(&s), (1.0, 1.0));
    assert_eq!((s.tests[0].score, s.tests[0].max_score), (0.0, 0.0));
    assert_eq!(
        s.tests[0].lost.as_deref(),
        Some("no scenario of this run is in this group")
    );
    // A group whose only scenarios are outside the run is empty too.
    let board = scenario("board-6x4", Status::Skipped, "");
    assert_eq!(points(&score(&p, "f", &[board], &[false])), (0.0, 0.0));
}

#[test]
fn a_hidden_group_still_counts_and_carries_its_date() {
    let p = policy(
        "[grading]\n[[grading.group]]\nname = \"secret\"\nscenarios = [\"s*\"]\npoints = 3\nhidden-until = \"2026-12-01T23:59:00Z\"\n",
    );
    let s = score(&p, "f", &[scenario("s1", Status::Passed, "")], &[]);
    assert_eq!(points(&s), (3.0, 3.0));
    assert_eq!(
        s.tests[0].hidden_until.as_deref(),
        Some("2026-12-01T23:59:00Z")
    );
    let mut s = s;
    let date = |text: &str| humantime::parse_rfc3339_weak(text).unwrap();
    s.hide_until(date("2026-12-01T23:58:59Z"));
    assert!(s.tests[0].hidden, "before the date");
    s.hide_until(date("2026-12-01T23:59:00Z"));
    assert!(!s.tests[0].hidden, "from the date on");
    assert_eq!(points(&s), (3.0, 3.0), "the same points either way");
    let e = Policy::from_toml(
        "[grading]\n[[grading.group]]\nname = \"x\"\nscenarios = [\"s\"]\npoints = 1\nhidden-until = \"next week\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("not a date"), "{e}");
}

#[test]
fn generated_games_earn_points_played_clean_and_won_without_a_finding() {
    let p = policy("[grading]\nper-clean-game = 1\nper-game-won = 2\n");
    let mut won_warned = game(3, Status::Passed, Some(EndResult::Won));
    won_warned.violations.push(WARNED.violation("late exit"));
    let results = [
        game(0, Status::Passed, Some(EndResult::Won)),
        game(1, Status::Passed, Some(EndResult::Lost)),
        game(2, Status::Failed, Some(EndResult::Won)),
        won_warned,
        scenario("scripted", Status::Passed, ""),
    ];
    let s = score(&p, "f", &results, &[]);
    // 3 + 1 + 0 + 1 (clean, but a warning is a finding) + 1 scripted.
    assert_eq!(points(&s), (6.0, 13.0));
    assert_eq!(
        s.tests[1].lost.as_deref(),
        Some("not won without a finding")
    );
    assert_eq!(
        s.tests[2].lost.as_deref(),
        Some("not played clean: failed (kalah.move.hole-range)")
    );
    // Without the game keys, a generated game is a scenario like the others.
    assert_eq!(
        points(&score(&Policy::default(), "d", &results, &[])),
        (4.0, 5.0)
    );
}

#[test]
fn bad_policies_are_refused_with_the_key() {
    for (toml, said) in [
        (
            "[grading]\npoints-per-scenario = -1\n",
            "points-per-scenario",
        ),
        ("[grading]\npoint-per-scenario = 1\n", "point-per-scenario"),
        (
            "[grading]\n[[grading.group]]\nname = \"g\"\npoints = 1\n",
            "takes no scenario",
        ),
        (
            "[grading]\n[[grading.group]]\nname = \"g\"\nscenarios = [\"a\"]\n",
            "points",
        ),
    ] {
        let e = Policy::from_toml(toml).unwrap_err().to_string();
        assert!(e.contains(said), "{toml}: {e}");
    }
}

#[test]
fn points_are_shown_without_float_noise() {
    assert_eq!(show(0.1 + 0.2), "0.3");
    assert_eq!(show(10.0), "10");
    assert_eq!(show(10.0 / 3.0), "3.3333");
    // Nothing scored is 0, never -0 (an empty sum of floats is -0.0).
    let none = score(&Policy::default(), "d", &[], &[]);
    assert!(none.score.is_sign_positive() && none.max_score.is_sign_positive());
}

#[test]
fn the_leaderboard_is_what_the_policy_names_in_its_order() {
    let results = [
        game(1, Status::Passed, Some(EndResult::Won)),
        game(2, Status::Passed, Some(EndResult::Lost)),
        game(3, Status::Failed, Some(EndResult::Won)),
        warned("w", 2),
        scenario("a", Status::Passed, ""),
    ];
    let p = policy(
        "[grading]\nper-game-won = 1\nleaderboard = [\"games-won\", \"clean-games\", \"warnings\", \"score\"]\n",
    );
    let s = score(&p, "p", &results, &[]);
    let board: Vec<(&str, f64, Order)> = s
        .leaderboard
        .iter()
        .map(|e| (e.name.as_str(), e.value, e.order))
        .collect();
    assert_eq!(
        board,
        [
            ("Games won", 1.0, Order::Desc),
            ("Games played clean", 2.0, Order::Desc),
            ("Warnings", 2.0, Order::Asc),
            ("Score", s.score, Order::Desc),
        ]
    );
    assert!(
        score(&Policy::default(), "d", &results, &[])
            .leaderboard
            .is_empty()
    );
    let e = Policy::from_toml("[grading]\nleaderboard = [\"speed\"]\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("speed"), "{e}");
}

#[test]
fn policy_errors_read_as_before_and_keep_their_cause() {
    let e = Policy::from_toml("[grading]\nwarnings = 2.0\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "[grading] warnings: a deduction is a fraction of the scenario's points per warning, 0 to 1 (not 2)"
    );
    let dir = std::env::temp_dir().join(format!("protocheck-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.toml");
    std::fs::write(&file, "[grading]\npoints-per-scenario = -1\n").unwrap();
    let e = Policy::from_file(&file).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: [grading] points-per-scenario must be a number of points, 0 or more (not -1)",
            file.display()
        )
    );
    assert_eq!(
        std::error::Error::source(&e)
            .map(|s| s.to_string())
            .as_deref(),
        Some("[grading] points-per-scenario must be a number of points, 0 or more (not -1)")
    );
    let missing = Policy::from_file(&dir.join("none.toml")).unwrap_err();
    assert!(std::error::Error::source(&missing).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}
