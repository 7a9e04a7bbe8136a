//! The built-in Evolution suite: at least 40 scenarios, all lint clean, and
//! every catalogue rule exercised by some scenario (named in its `rules:`) or listed below as unreachable with a reason.

use protocheck::games::evolution::catalogue;
use protocheck::scenario::builtin;
use std::collections::BTreeSet;

/// Rules no built-in scenario can set up, and why. (None so far: the
/// transport-level ones are exercised by every scenario, since any of them
/// may draw them; the sample clients show each one firing.)
const UNREACHABLE: &[(&str, &str)] = &[];

#[test]
fn the_suite_has_at_least_40_lint_clean_scenarios() {
    let suite = builtin::suite("evolution").expect("the built-in suite parses");
    assert!(suite.len() >= 40, "{} scenarios", suite.len());
    let game = protocheck::games::by_id("evolution").expect("evolution is registered");
    for s in &suite {
        let errors = protocheck::suite::lint::lint(s, game);
        assert!(errors.is_empty(), "{}: {errors:?}", s.name);
    }
}

#[test]
fn every_catalogue_rule_is_exercised_or_listed_as_unreachable() {
    let suite = builtin::suite("evolution").unwrap();
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

/// Impossible scripted messages are scenario errors at the step's line.
#[test]
fn impossible_scripted_messages_are_located_scenario_errors() {
    let game = protocheck::games::by_id("evolution").unwrap();
    let board = r#"[["food",0],["body",0],["population",1],["traits",[]]]"#;
    let cases = [
        // A hand of three cards: every choose comes with at least four.
        (
            format!(r#"[0,0,[{board}],[[-3,"ambush"],[-2,"ambush"],[-1,"ambush"]]]"#),
            None,
            "at least 4",
        ),
        // A card that is not among the 122 (ambush is -3..3).
        (
            format!(r#"[0,0,[{board}],[[9,"ambush"],[-2,"ambush"],[-1,"ambush"],[0,"ambush"]]]"#),
            None,
            "hand",
        ),
        // A board with a repeated trait.
        (
            r#"[0,0,[[["food",0],["body",0],["population",1],["traits",["horns","horns"]]]],[[-3,"ambush"],[-2,"ambush"],[-1,"ambush"],[0,"ambush"]]]"#.to_string(),
            None,
            "repeats a trait",
        ),
        // choose whose `after` does not begin with the bot's boards.
        (
            format!(r#"[0,0,[{board}],[[-3,"ambush"],[-2,"ambush"],[-1,"ambush"],[0,"ambush"]]]"#),
            Some(format!(r#"[[],[[{board},{board}],[{board}],[{board}]]]"#)),
            "own boards",
        ),
    ];
    for (start, choose, want) in cases {
        let mut text = format!(
            "name: bad\ngame: evolution\noptions: {{ players: 3, seat: 1 }}\nsteps:\n  - expect: legal-move\n  - send: '{start}'\n"
        );
        let line = if let Some(c) = &choose {
            text += &format!("  - send: '{c}'\n");
            7
        } else {
            6
        };
        let scenario = protocheck::scenario::load::parse(&text, "bad.yaml", None).unwrap();
        let errors = protocheck::suite::lint::lint(&scenario, game);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].line, line, "{errors:?}");
        assert!(errors[0].message.contains(want), "{}", errors[0].message);
    }
}
