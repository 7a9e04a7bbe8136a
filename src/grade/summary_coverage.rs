//! The class page's coverage table (issue 30, docs/coverage.md): for each
//! rule of the game and each situation it declares, on how many bots it
//! was checked (or reached), on how many every check held, and on how many
//! it was broken, read off each bot's report coverage (`Row::coverage`).

use super::table::{Grades, Row};
use crate::coverage::RowKind;
use crate::report::html::escape;
use std::fmt::Write;

/// One rule or situation, counted over the class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCoverage {
    pub id: String,
    pub kind: RowKind,
    /// Bots whose run checked it (a situation: reached it).
    pub checked: usize,
    /// Bots on which every check of it held.
    pub held: usize,
    /// Bots that broke it at least once.
    pub broken: usize,
}

/// Per rule and situation, the class's counts: in the game's catalogue and
/// declaration order when the game is known (every rule listed, also those
/// no bot's run checked), otherwise in the order the reports first list
/// them. Only bots with a coverage report count.
pub fn class_coverage(game: Option<&str>, rows: &[Row]) -> Vec<ClassCoverage> {
    let mut all: Vec<ClassCoverage> = Vec::new();
    let declared = game
        .and_then(crate::games::by_id)
        .map(|g| crate::coverage::Summary::new(g, &Default::default()).rows)
        .unwrap_or_default();
    let blank = |id: &str, kind: RowKind| ClassCoverage {
        id: id.to_string(),
        kind,
        checked: 0,
        held: 0,
        broken: 0,
    };
    for r in &declared {
        all.push(blank(&r.id, r.kind));
    }
    for bot in rows {
        for r in &bot.coverage {
            let at = match all.iter().position(|c| c.id == r.id) {
                Some(at) => at,
                None => {
                    all.push(blank(&r.id, r.kind));
                    all.len() - 1
                }
            };
            let c = &mut all[at];
            c.checked += 1;
            if r.broken > 0 {
                c.broken += 1;
            } else {
                c.held += 1;
            }
        }
    }
    all
}

/// The section: a sortable table, with the bots it counts.
pub fn table(grades: &Grades) -> String {
    let rows = &grades.bots;
    let counted = rows.iter().filter(|r| !r.coverage.is_empty()).count();
    let mut out = String::from("<h2>Coverage, by number of bots</h2>\n");
    if counted == 0 {
        out += "<p>No bot's report records coverage.</p>\n";
        return out;
    }
    let _ = writeln!(
        out,
        "<p>Of the {} whose report records coverage: on how many each rule was checked (every check held, or broken at least once), and each situation reached.</p>",
        super::counted(counted, "bot", "bots")
    );
    out += "<table class=\"coverage\">\n<thead><tr><th>Rule or situation</th><th>Kind</th><th>Checked on</th><th>Held on</th><th>Broken on</th><th>Never on</th></tr></thead>\n<tbody>\n";
    for c in class_coverage(grades.game.as_deref(), rows) {
        let kind = match c.kind {
            RowKind::Rule => "rule",
            RowKind::Situation => "situation",
        };
        let _ = writeln!(
            out,
            "<tr data-id=\"{id}\"><td><code>{id}</code></td><td>{kind}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            c.checked,
            c.held,
            c.broken,
            counted.saturating_sub(c.checked),
            id = escape(&c.id),
        );
    }
    out += "</tbody>\n</table>\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::Row as Counted;

    fn counted(id: &str, kind: RowKind, checked: u64, broken: u64) -> Counted {
        Counted {
            id: id.into(),
            kind,
            checked,
            passed: checked - broken,
            broken,
        }
    }

    fn bot(id: &str, coverage: Vec<Counted>) -> Row {
        let mut row: Row = serde_json::from_value(serde_json::json!({
            "id": id, "status": "passed", "passed": 1, "failed": 0, "warnings": 0,
            "skipped": 0, "first_failing_rule": null, "seconds": 1.0,
            "report": format!("{id}/report.html"), "note": null, "rules": []
        }))
        .unwrap();
        row.coverage = coverage;
        row
    }

    #[test]
    fn each_rule_counts_the_bots_it_was_checked_held_and_broken_on() {
        let rows = vec![
            bot(
                "a",
                vec![
                    counted("kalah.move.empty-hole", RowKind::Rule, 5, 0),
                    counted("kalah.capture.any", RowKind::Situation, 2, 0),
                ],
            ),
            bot(
                "b",
                vec![counted("kalah.move.empty-hole", RowKind::Rule, 4, 1)],
            ),
            // No report: not counted at all.
            bot("c", Vec::new()),
        ];
        let all = class_coverage(Some("kalah"), &rows);
        let of = |id: &str| all.iter().find(|c| c.id == id).unwrap().clone();
        let empty_hole = of("kalah.move.empty-hole");
        assert_eq!(
            (empty_hole.checked, empty_hole.held, empty_hole.broken),
            (2, 1, 1)
        );
        let capture = of("kalah.capture.any");
        assert_eq!(
            (capture.kind, capture.checked, capture.held),
            (RowKind::Situation, 1, 1)
        );
        // Every rule of the game is listed, the unchecked ones too, in
        // catalogue order, rules before situations.
        let budget = of("kalah.time.budget");
        assert_eq!((budget.checked, budget.broken), (0, 0));
        let game = crate::games::by_id("kalah").unwrap();
        assert_eq!(
            all.len(),
            game.facts().catalogue.all().len() + game.situations().len()
        );
        assert_eq!(all[0].id, game.facts().catalogue.all()[0].id);
        // Without a known game: the ids the reports list.
        assert_eq!(class_coverage(None, &rows).len(), 2);

        let page = table(&Grades {
            protocheck: "0".into(),
            game: Some("kalah".into()),
            options: Vec::new(),
            partition: None,
            bot_time_limit: None,
            compared_with: None,
            bots: rows,
        });
        assert!(
            page.contains("Of the 2 bots whose report records coverage"),
            "{page}"
        );
        assert!(
            page.contains("<tr data-id=\"kalah.move.empty-hole\"><td><code>kalah.move.empty-hole</code></td><td>rule</td><td class=\"n\">2</td><td class=\"n\">1</td><td class=\"n\">1</td><td class=\"n\">0</td></tr>"),
            "{page}"
        );
        assert!(page.contains("<tr data-id=\"kalah.time.budget\"><td><code>kalah.time.budget</code></td><td>rule</td><td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">2</td></tr>"), "{page}");
    }

    #[test]
    fn a_class_without_coverage_says_so() {
        let page = table(&Grades {
            protocheck: "0".into(),
            game: None,
            options: Vec::new(),
            partition: None,
            bot_time_limit: None,
            compared_with: None,
            bots: vec![bot("a", Vec::new())],
        });
        assert!(page.contains("No bot's report records coverage."));
    }
}
