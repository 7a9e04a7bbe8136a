//! Test helpers shared by every game's catalogue: rule ids are well formed,
//! and the catalogue says, word for word, what the game's rules digest
//! (`../shared/rules/<game>.md`, §8) says.

use crate::verdict::RuleInfo;
use std::collections::HashSet;

/// Ids are unique, dotted, lowercase (`a-z`, digits, `-`), start with the
/// game's prefix, `io.` or (the scripted expectations) `scenario.`, and every
/// rule has a spec sentence.
pub fn ids_are_well_formed(all: &[&RuleInfo], game: &str) {
    let mut seen = HashSet::new();
    for r in all {
        assert!(seen.insert(r.id), "duplicate id {}", r.id);
        let parts: Vec<&str> = r.id.split('.').collect();
        assert!(parts.len() >= 2, "{} is not dotted", r.id);
        assert!(
            parts.iter().all(|p| !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')),
            "{} is not lowercase dotted",
            r.id
        );
        assert!(
            parts[0] == game || parts[0] == "io" || parts[0] == "scenario",
            "{}: unexpected prefix",
            r.id
        );
        assert!(!r.spec.is_empty(), "{} has no spec sentence", r.id);
    }
}

/// `(id, severity, requirement)` of each row of the table in the section
/// that starts at `heading`, up to the next `## ` heading.
fn table<'a>(md: &'a str, heading: &str, doc: &str) -> (Vec<(&'a str, &'a str, &'a str)>, usize) {
    let start = md
        .find(heading)
        .unwrap_or_else(|| panic!("{doc} has no `{heading}`"));
    let section = &md[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    let section = &section[..end];
    let id_lines = section.lines().filter(|l| l.starts_with("| `")).count();
    let rows = section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .strip_prefix('|')?
                .strip_suffix('|')?
                .split(" | ")
                .collect();
            let id = cells.first()?.trim().strip_prefix('`')?.strip_suffix('`')?;
            (cells.len() == 3).then(|| (id, cells[1].trim(), cells[2].trim()))
        })
        .collect();
    (rows, id_lines)
}

/// A game's own rows (`Catalogue::own`: the shared rules the core adds are
/// harness policy no digest lists) are exactly the rows of §8 of
/// `../shared/rules/<doc>` (severity: the cell's first word, the default;
/// spec: the requirement, word for word). Without the shared folder (a clone
/// of this repository alone) it says it skipped.
pub fn matches_rules_doc(own: &[&RuleInfo], doc: &str, heading: &str, min_rows: usize) {
    compare_with_rules_doc(own, doc, heading, min_rows, true);
}

/// As [`matches_rules_doc`], without the sentences: for a catalogue whose
/// spec sentences state each rule where the digest's table describes the
/// violation (Evolution's).
pub fn ids_and_severities_match_rules_doc(
    own: &[&RuleInfo],
    doc: &str,
    heading: &str,
    min_rows: usize,
) {
    compare_with_rules_doc(own, doc, heading, min_rows, false);
}

fn compare_with_rules_doc(
    own: &[&RuleInfo],
    doc: &str,
    heading: &str,
    min_rows: usize,
    sentences: bool,
) {
    let path = format!("{}/../shared/rules/{doc}", env!("CARGO_MANIFEST_DIR"));
    let Ok(md) = std::fs::read_to_string(&path) else {
        println!(
            "skipped: ../shared/rules/{doc} not found ({path}); the catalogue is compared \
             with its §8 table only where the shared folder sits next to this repository"
        );
        return;
    };
    let (rows, id_lines) = table(&md, heading, doc);
    assert_eq!(rows.len(), id_lines, "some §8 rows of {doc} did not parse");
    assert!(
        rows.len() >= min_rows,
        "parsed only {} rows from §8",
        rows.len()
    );
    let by_id = |id: &str| own.iter().copied().find(|r| r.id == id);
    for (id, severity, spec) in &rows {
        let r = by_id(id).unwrap_or_else(|| panic!("{id} is in {doc} §8 but not in the catalogue"));
        let default = severity.split_whitespace().next().unwrap_or("");
        assert_eq!(r.severity.as_str(), default, "severity of {id}");
        if sentences {
            assert_eq!(r.spec, *spec, "spec of {id}");
        }
    }
    let in_table: HashSet<&str> = rows.iter().map(|r| r.0).collect();
    let extra: Vec<&str> = own
        .iter()
        .filter(|r| !in_table.contains(r.id))
        .map(|r| r.id)
        .collect();
    assert!(
        extra.is_empty(),
        "in the catalogue but not in {doc} §8: {extra:?}"
    );
}

/// Wordings that describe a violation ("The bot did not connect", "A card
/// index is not smaller than …") where a spec sentence states the rule it
/// enforces ("The bot connects …", "Every card index is smaller than …").
/// The report prints the sentence after `spec:`, below the message that
/// already says what went wrong.
const VIOLATION_WORDINGS: &[&str] = &[
    " did not ",
    " was not ",
    " were not ",
    "exceeded",
    "not smaller than",
    " lacks ",
    " would raise ",
    " would hold ",
    "used twice",
    " is not `",
    " is not a ",
    " is not an ",
    " arrived ",
    " appears between ",
    " appears before ",
    " is negative",
    " equals its ",
];

/// The subjects a violation is told about, at the start of a sentence.
const VIOLATION_OPENINGS: &[&str] = &[
    "The bot exited",
    "The bot closed",
    "The bot sent",
    "The bot opened more than",
    "The reply is `false`",
];

#[test]
fn every_spec_sentence_states_the_rule_not_the_violation() {
    let mut described = Vec::new();
    for game in crate::games::ALL {
        for r in game.catalogue() {
            let spec = format!(" {} ", r.spec);
            let wording = VIOLATION_WORDINGS.iter().find(|w| spec.contains(*w));
            let opening = VIOLATION_OPENINGS.iter().find(|o| r.spec.starts_with(*o));
            if let Some(found) = wording.or(opening) {
                described.push(format!(
                    "{} ({}): `{found}` in {:?}",
                    r.id,
                    game.id(),
                    r.spec
                ));
            }
        }
    }
    assert!(
        described.is_empty(),
        "spec sentences that describe the violation instead of stating the rule:\n{}",
        described.join("\n")
    );
}
