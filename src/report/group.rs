//! Identical findings across scenarios (issue 19, item 8): a bot that fails
//! 25 scenarios the same way gets one full block and a list of the other
//! scenarios, in the human and HTML reports. JSON and JUnit keep every one.
//!
//! "The same finding" is the same rule, severity and message. The step, the
//! board, the transcript and expected-vs-actual may differ (they say where,
//! not what); the full block shows the first scenario's as the example.

use crate::outcome::ScenarioResult;
use crate::verdict::Violation;

/// Where one kept finding of one scenario is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// In full, and no other scenario has the same finding.
    Own,
    /// In full, for these other scenarios too (indices into the results, in
    /// run order).
    First(Vec<usize>),
    /// Only as a pointer to the full one in this earlier scenario.
    Repeat(usize),
}

/// The place of every kept finding of every scenario.
#[derive(Clone, Debug, Default)]
pub struct Grouping {
    places: Vec<Vec<Place>>,
}

fn same(a: &Violation, b: &Violation) -> bool {
    a.rule == b.rule && a.severity == b.severity && a.message == b.message
}

impl Grouping {
    /// Group the findings of the scenarios whose details the report shows
    /// (`shown`); the others keep theirs as `Own` and are never pointed at.
    pub fn of(results: &[ScenarioResult], shown: impl Fn(&ScenarioResult) -> bool) -> Grouping {
        let mut places: Vec<Vec<Place>> = results
            .iter()
            .map(|r| vec![Place::Own; r.violations.len()])
            .collect();
        // (scenario, finding) of each distinct finding's first full block.
        let mut firsts: Vec<(usize, usize)> = Vec::new();
        for (s, r) in results.iter().enumerate() {
            if !shown(r) {
                continue;
            }
            for (f, v) in r.violations.iter().enumerate() {
                // Within one scenario, repeated findings stay as they are:
                // the per-rule cap already deals with those.
                match firsts
                    .iter()
                    .find(|&&(fs, ff)| fs != s && same(&results[fs].violations[ff], v))
                {
                    Some(&(fs, ff)) => {
                        places[s][f] = Place::Repeat(fs);
                        match &mut places[fs][ff] {
                            Place::First(others) => {
                                if others.last() != Some(&s) {
                                    others.push(s);
                                }
                            }
                            own => *own = Place::First(vec![s]),
                        }
                    }
                    None => firsts.push((s, f)),
                }
            }
        }
        Grouping { places }
    }

    /// A grouping that groups nothing (`-v`: every scenario in full).
    pub fn none(results: &[ScenarioResult]) -> Grouping {
        Grouping::of(results, |_| false)
    }

    pub fn place(&self, scenario: usize, finding: usize) -> &Place {
        self.places
            .get(scenario)
            .and_then(|p| p.get(finding))
            .unwrap_or(&Place::Own)
    }

    /// When every finding of the scenario is shown in full elsewhere and it
    /// has nothing else of its own to say (no scenario error, no count of
    /// omitted findings, no replay command or saved game): the earlier
    /// scenarios that show them, in run order. `None` otherwise.
    pub fn all_elsewhere(&self, scenario: usize, r: &ScenarioResult) -> Option<Vec<usize>> {
        if r.violations.is_empty()
            || r.error.is_some()
            || !r.omitted.is_empty()
            || r.replay.is_some()
            || r.saved_to.is_some()
        {
            return None;
        }
        let mut firsts: Vec<usize> = Vec::new();
        for f in 0..r.violations.len() {
            match self.place(scenario, f) {
                Place::Repeat(first) => {
                    if !firsts.contains(first) {
                        firsts.push(*first);
                    }
                }
                _ => return None,
            }
        }
        firsts.sort_unstable();
        Some(firsts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Status;

    const CRASH: crate::verdict::RuleInfo = crate::verdict::RuleInfo {
        id: "io.crash",
        severity: crate::verdict::Severity::Fail,
        spec: "The bot keeps running.",
    };
    const NO_MOVE: crate::verdict::RuleInfo = crate::verdict::RuleInfo {
        id: "kalah.move.empty-hole",
        severity: crate::verdict::Severity::Fail,
        spec: "A move names a hole with seeds.",
    };

    fn failed(name: &str, findings: Vec<Violation>) -> ScenarioResult {
        ScenarioResult {
            violations: findings,
            ..ScenarioResult::new(
                name,
                "kalah",
                &format!("builtin:kalah/{name}.yaml"),
                Status::Failed,
            )
        }
    }

    #[test]
    fn same_rule_and_message_group_under_the_first_scenario() {
        static C: crate::verdict::RuleInfo = CRASH;
        static M: crate::verdict::RuleInfo = NO_MOVE;
        let results = [
            failed("a", vec![C.violation("exited with status 1")]),
            failed(
                "b",
                vec![C.violation("exited with status 1").with_actual("x")],
            ),
            failed(
                "c",
                vec![
                    M.violation("hole 3 is empty"),
                    C.violation("exited with status 1"),
                ],
            ),
            failed("d", vec![C.violation("exited with status 2")]),
        ];
        let g = Grouping::of(&results, |_| true);
        assert_eq!(g.place(0, 0), &Place::First(vec![1, 2]));
        assert_eq!(g.place(1, 0), &Place::Repeat(0));
        assert_eq!(g.place(2, 0), &Place::Own);
        assert_eq!(g.place(2, 1), &Place::Repeat(0));
        // A different message is a different finding.
        assert_eq!(g.place(3, 0), &Place::Own);
        assert_eq!(g.all_elsewhere(1, &results[1]), Some(vec![0]));
        assert_eq!(g.all_elsewhere(2, &results[2]), None);
        assert_eq!(g.all_elsewhere(0, &results[0]), None);
        // Nothing grouped when nothing is shown.
        let none = Grouping::none(&results);
        assert_eq!(none.place(1, 0), &Place::Own);
        assert_eq!(none.all_elsewhere(1, &results[1]), None);
    }
}
