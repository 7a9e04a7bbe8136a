use super::*;
use std::collections::BTreeSet;

#[test]
fn every_file_parses() {
    for (game, text) in data::sources() {
        let entries = data::parse(text).unwrap_or_else(|e| panic!("{game}: {e}"));
        let mut seen = BTreeSet::new();
        for e in &entries {
            assert!(seen.insert(&e.id), "{game}: {} twice", e.id);
        }
    }
}

#[test]
fn every_catalogue_rule_has_an_entry_and_every_entry_a_rule() {
    let mut missing = Vec::new();
    for (game, rules) in catalogues() {
        for r in rules {
            if entry(game, r.id).is_none() {
                missing.push(format!("{game}: {}", r.id));
            }
        }
        for e in entries(game) {
            assert!(
                rules.iter().any(|r| r.id == e.id),
                "{game}: the entry {} names no rule of the catalogue",
                e.id
            );
        }
    }
    assert!(
        missing.is_empty(),
        "no explanation for:\n{}",
        missing.join("\n")
    );
    // The shared table holds only the harness rules, which every game has.
    for e in entries(data::HARNESS) {
        assert!(
            crate::shared_rules::HARNESS.iter().any(|r| r.id == e.id),
            "harness entry {} is not a harness limit",
            e.id
        );
    }
    // Every registered game is explained.
    assert_eq!(catalogues().len(), crate::games::ALL.len());
}

#[test]
fn lookup_finds_ids_prefixless_ids_and_suggests_near_misses() {
    let Lookup::Found(found) = lookup("kalah.move.empty-hole", None) else {
        panic!("not found")
    };
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "kalah");
    let Lookup::Found(found) = lookup("move.empty-hole", None) else {
        panic!("prefixless id not found")
    };
    assert_eq!(found[0].1.id, "kalah.move.empty-hole");
    let Lookup::Unknown { suggestions } = lookup("kalah.move.empty", None) else {
        panic!("a near miss was found")
    };
    assert_eq!(suggestions.first(), Some(&"kalah.move.empty-hole"));
    let Lookup::Found(found) = lookup("io.timeout", None) else {
        panic!("io.timeout not found")
    };
    assert!(found.len() >= 4, "{found:?}");
    let Lookup::Found(found) = lookup("io.timeout", Some("quoridor")) else {
        panic!("io.timeout not found in quoridor")
    };
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1.severity, crate::verdict::Severity::Fail);
    assert!(matches!(
        lookup("kalah.move.empty-hole", Some("quoridor")),
        Lookup::NotInGame { .. }
    ));
    // `grammar.unknown-card` is dominion-sexp's and dominion-text's.
    assert!(matches!(
        lookup("grammar.unknown-card", None),
        Lookup::Ambiguous(_)
    ));
    assert!(matches!(
        lookup("zzzzzzzzzz", None),
        Lookup::Unknown { suggestions } if suggestions.is_empty()
    ));
}

#[test]
fn every_rule_a_scenario_names_is_in_its_games_catalogue() {
    for (game, rules) in catalogues() {
        let prefix = format!("{game}/");
        for (path, text) in crate::scenario::builtin::files() {
            if !path.starts_with(&prefix) {
                continue;
            }
            let Ok(s) = crate::scenario::load::parse(text, path, Some(game)) else {
                continue;
            };
            for r in &s.rules {
                assert!(
                    rules.iter().any(|x| x.id == *r),
                    "{path} names {r}, which is not a rule of {game}"
                );
            }
        }
    }
}

#[test]
fn every_built_in_scenario_names_the_rules_it_probes() {
    for game in crate::games::ids() {
        let suite = crate::scenario::builtin::suite(game).expect("the built-in suite parses");
        assert!(!suite.is_empty(), "{game} has no built-in scenarios");
        for s in &suite {
            assert!(
                !s.rules.is_empty(),
                "{game}/{} names no rules (give it `rules: [a, b]`)",
                s.name
            );
        }
    }
    // And the list is what explain shows.
    let listed = exercising("kalah", "kalah.swap.not-allowed");
    assert!(
        listed.contains(&"kalah/01-south-first-move.yaml".to_string()),
        "{listed:?}"
    );
    assert!(
        !listed.iter().any(|s| s.contains("16-opponent-lap-capture")),
        "{listed:?}"
    );
}

/// Every rule the controller can report in a game, whatever the game's own
/// rules: the harness rules it reports itself, the session `io.*` rules,
/// and the rules the game names for the controller's own checks (an
/// over-long message, the memory limit). Each is in the game's catalogue
/// (so reports, `rules` and scenario files can name it) and explained.
#[test]
fn every_rule_the_controller_reports_is_in_every_catalogue_and_explained() {
    use crate::shared_rules::{HARNESS, SESSION_IO};
    let mut problems = Vec::new();
    for game in crate::games::ALL {
        let mut reported: Vec<&RuleInfo> = HARNESS.iter().chain(SESSION_IO).copied().collect();
        reported.push(game.line_too_long());
        reported.extend(game.facts().memory_limit.map(|(_, rule)| rule));
        for rule in reported {
            if !game.catalogue().iter().any(|r| r.id == rule.id) {
                problems.push(format!(
                    "{}: {} is not in the catalogue",
                    game.id(),
                    rule.id
                ));
            }
            if entry(game.id(), rule.id).is_none() {
                problems.push(format!("{}: {} has no explain entry", game.id(), rule.id));
            }
        }
        // What the controller reports is the catalogue's own entry, so the
        // report quotes the game's wording and severity.
        for rule in HARNESS {
            assert!(
                game.catalogue().iter().any(|r| std::ptr::eq(*r, *rule)),
                "{}: {}",
                game.id(),
                rule.id
            );
        }
        assert!(
            game.catalogue()
                .iter()
                .any(|r| std::ptr::eq(*r, game.line_too_long())),
            "{}",
            game.id()
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// User-facing text cites only documents a user has: no `shared/rules`
/// (outside this repository), and every `docs/…` path it names exists, with
/// every "decision N" it cites numbered in that page. Checked over the
/// explain data, every catalogue's spec sentences, the built-in scenarios'
/// `about` and `spec` texts, and the reasons games give for skipping.
#[test]
fn user_facing_text_cites_only_docs_that_exist() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut texts: Vec<(String, String)> = Vec::new();
    for (game, text) in data::sources() {
        let shown: Vec<&str> = text.lines().filter(|l| !l.starts_with(";;")).collect();
        texts.push((format!("explain data of {game}"), shown.join("\n")));
    }
    for (game, rules) in catalogues() {
        for r in rules {
            texts.push((format!("{game} {}", r.id), r.spec.to_string()));
        }
    }
    for (path, text) in crate::scenario::builtin::files() {
        let Ok(s) = crate::scenario::load::parse(text, path, None) else {
            continue;
        };
        let shown = [s.about.unwrap_or_default(), s.spec.unwrap_or_default()].join("\n");
        texts.push((path.to_string(), shown));
    }
    for game in crate::games::ALL {
        let other_board = crate::scenario::Options::default()
            .with("holes", 6)
            .with("seeds", 4);
        if let Some(reason) = game.outside_default_run(&other_board) {
            texts.push((format!("{} skip reason", game.id()), reason));
        }
    }
    assert!(
        texts
            .iter()
            .any(|(_, t)| t.contains("docs/games/kalah.md, decision 14"))
    );
    let cited = regex::Regex::new(r"docs/[a-z0-9/_-]+\.md(?:,\s+decisions?\s+(\d+))?").unwrap();
    let mut problems = Vec::new();
    for (place, text) in &texts {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.contains("shared/rules") {
            problems.push(format!("{place}: cites shared/rules"));
        }
        for m in cited.captures_iter(&text) {
            let path = m[0].split(',').next().unwrap_or_default();
            let Ok(page) = std::fs::read_to_string(format!("{root}/{path}")) else {
                problems.push(format!("{place}: {path} does not exist"));
                continue;
            };
            if let Some(n) = m.get(1)
                && !page
                    .lines()
                    .any(|l| l.starts_with(&format!("{}. **", n.as_str())))
            {
                problems.push(format!("{place}: {path} has no decision {}", n.as_str()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
