//! The built-in dominion-text suite: at least 40 scenarios, all lint clean,
//! every catalogue rule named by some scenario (in its `rules:`) or listed below as unreachable with a reason; impossible
//! scripted messages and states are scenario errors at their step; and a
//! failing generated game saved with `--save-failures` replays to the same
//! verdict. (Needs the examples `dtext-correct` and `dtext-mine-to-gold`:
//! `cargo build --example dtext-correct --example dtext-mine-to-gold`.)

use crate::common;
use common::*;
use protocheck::games::dominion_text::catalogue;
use protocheck::scenario::builtin;
use std::collections::BTreeSet;

/// Rules no built-in scenario names, and why.
const UNREACHABLE: &[(&str, &str)] = &[];

#[test]
fn the_suite_has_at_least_40_lint_clean_scenarios() {
    let suite = builtin::suite("dominion-text").expect("the built-in suite parses");
    assert!(suite.len() >= 40, "{} scenarios", suite.len());
    let game = protocheck::games::by_id("dominion-text").expect("dominion-text is registered");
    for s in &suite {
        let errors = protocheck::suite::lint::lint(s, game);
        assert!(errors.is_empty(), "{}: {errors:?}", s.name);
    }
}

#[test]
fn every_catalogue_rule_is_exercised_or_listed_as_unreachable() {
    let suite = builtin::suite("dominion-text").unwrap();
    let mut named = BTreeSet::new();
    for s in &suite {
        assert!(!s.rules.is_empty(), "{} names no rules", s.name);
        for r in s.rules.clone() {
            assert!(
                catalogue::CATALOGUE.by_id(&r).is_some(),
                "{} names `{r}`, which is not in the catalogue",
                s.name
            );
            named.insert(r);
        }
    }
    for rule in catalogue::CATALOGUE.all() {
        // The harness rules (protocheck's bounds, scripted expectations) can
        // follow any reply of any scenario; tests/integration/hostile.rs draws them.
        let harness = protocheck::shared_rules::HARNESS.contains(rule);
        let listed = harness || UNREACHABLE.iter().any(|(id, _)| *id == rule.id);
        assert!(
            named.contains(rule.id) || listed,
            "no built-in scenario exercises {}",
            rule.id
        );
    }
}

/// A scenario file with these steps, linted: the errors.
fn lint_steps(options: &str, steps: &[&str]) -> Vec<String> {
    let text = format!(
        "name: impossible\ngame: dominion-text\noptions: {{ {options} }}\nsteps:\n{}",
        steps
            .iter()
            .map(|s| format!("  - {s}\n"))
            .collect::<String>()
    );
    let scenario =
        protocheck::scenario::load::parse(&text, "impossible.yaml", None).expect("the file parses");
    let game = protocheck::games::by_id("dominion-text").unwrap();
    protocheck::suite::lint::lint(&scenario, game)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

const SUPPLY_2P: &str = "supply curse 10 copper 46 silver 40 gold 30 estate 8 duchy 8 province 8 cellar 10 market 10 militia 10 mine 10 moat 10 remodel 10 smithy 10 village 10 woodcutter 10 workshop 10";

/// Impossible scripted messages and states are scenario errors located at
/// their step (file:line:col), with what protocheck would send instead.
#[test]
fn impossible_scripted_messages_are_located_scenario_errors() {
    let handshake = ["opponent: auto", "expect: legal-move", "expect: legal-move"];
    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        // A hand the bot cannot hold: six cards between turns.
        (
            vec!["opponent: \"bot-hand copper copper copper copper copper copper\"".into()],
            "impossible.yaml:5:5",
            "cannot hold 6 cards",
        ),
        // A supply count that does not follow: one silver gone.
        (
            handshake
                .iter()
                .map(|s| s.to_string())
                .chain([format!(
                    "send: \"{}\"",
                    SUPPLY_2P.replace("silver 40", "silver 39")
                )])
                .collect(),
            "impossible.yaml:8:5",
            "does not follow",
        ),
        // A request out of order: an attack request at the bot's turn start.
        (
            handshake
                .iter()
                .map(|s| s.to_string())
                .chain(["send: \"play-request attack discard 2 hand copper copper copper copper copper\"".to_string()])
                .collect(),
            "impossible.yaml:8:5",
            "protocheck sends `supply",
        ),
        // A play-turn whose hand is not the bot's.
        (
            vec![
                "opponent: \"bot-hand smithy copper copper copper estate\"".to_string(),
                "send: \"player player1 name\"".into(),
                "expect: legal-move".into(),
                "expect: legal-move".into(),
                format!("send: \"{SUPPLY_2P}\""),
                "send: \"play-request play-turn actions 1 buys 1 extra-money 0 hand gold copper copper copper estate\"".into(),
            ],
            "impossible.yaml:10:5",
            "column 60",
        ),
        // A pile above its starting size, and a supply that would have
        // ended the game already.
        (
            vec!["opponent: \"supply gold 31\"".into()],
            "impossible.yaml:5:5",
            "never holds more than its 30",
        ),
        (
            vec!["opponent: \"supply gold 0 silver 0 curse 0\"".into()],
            "impossible.yaml:5:5",
            "already be over",
        ),
        // An illegal built-in play.
        (
            vec![
                "opponent: \"hand copper copper copper copper copper\"".into(),
                "opponent: auto".into(),
                "expect: legal-move".into(),
                "expect: legal-move".into(),
                "opponent: \"buy gold\"".into(),
            ],
            "impossible.yaml:9:5",
            "dominion-text.buy.unaffordable",
        ),
        // A server line that is not canonical.
        (
            vec!["send: \"player  player1 name\"".into()],
            "impossible.yaml:5:5",
            "column 8",
        ),
    ];
    for (steps, at, says) in cases {
        let seat = if steps.iter().any(|s| s.contains("\"hand ")) {
            "players: 2, seat: 2"
        } else {
            "players: 2, seat: 1"
        };
        let steps: Vec<&str> = steps.iter().map(String::as_str).collect();
        let errors = lint_steps(seat, &steps);
        assert_eq!(errors.len(), 1, "{steps:?}: {errors:?}");
        assert!(errors[0].starts_with(at), "{steps:?}: {}", errors[0]);
        assert!(errors[0].contains(says), "{steps:?}: {}", errors[0]);
    }
}

#[test]
fn the_correct_bot_passes_the_suite_and_generated_games_in_every_seat() {
    let bot = bot("dtext-correct");
    let out = run_json(
        &[
            "--game",
            "dominion-text",
            "--exit-grace",
            "500ms",
            "--games",
            "9",
            "--seed",
            "3",
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    assert!(out.rules().is_empty(), "{:?}", out.rules());
    let statuses = out.statuses();
    assert!(statuses.len() >= 40 + 9, "{}", statuses.len());
    assert!(statuses.iter().all(|s| s == "passed"), "{statuses:?}");
}

#[test]
fn failing_generated_games_are_saved_and_replay_to_the_same_verdict() {
    let dir = tempdir();
    let bot = bot("dtext-mine-to-gold");
    let out = run_json(
        &[
            "--game",
            "dominion-text",
            "--filter",
            "generated-*",
            "--games",
            "9",
            "--seed",
            "5",
            "--save-failures",
            dir.to_str().unwrap(),
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{:?}", out.rules());
    assert!(assert_saved_failures_replay("dominion-text", &bot, &out) >= 1);
    let _ = std::fs::remove_dir_all(&dir);
}
