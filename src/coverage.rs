//! What a run exercised: every rule check that ran (checked, and passed or
//! broken) and every game situation reached (issue 30, docs/coverage.md).
//!
//! Judging writes to one sink, the controller's [`Coverage`] of a scenario:
//! a finding counts as a broken check where the ledger keeps it, the rules a
//! game's judgement applied and found kept come with its `Judged::passed`,
//! and the rules the controller watches for a whole scenario (output and
//! resource bounds, the bot's staying alive) count once per scenario that
//! ran without a finding of them. A game declares its situations as data in
//! its own folder (`games/<game>/coverage.rs`); its session counts the ones
//! a game reached ([`Reached`]).

use crate::verdict::RuleInfo;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A rule or situation id in a [`Coverage`]: while a run counts, the
/// catalogue's own `&'static str`, so that counting, cloning and dropping a
/// scenario's coverage allocate nothing per id (they did, a `String` each:
/// about a third of the cost of counting, docs/performance.md); owned when
/// read back from a report.
pub type CoverageId = Cow<'static, str>;

/// A game situation worth reaching (the bot swapped; a jump), declared by
/// its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// Stable, dotted, lowercase, like a rule id: `<game>.<area>.<what>`.
    pub id: &'static str,
    /// What it is, in a few words, for the table.
    pub what: &'static str,
}

/// How often one rule was checked, and how each check went.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Tally {
    pub checked: u64,
    pub passed: u64,
    pub broken: u64,
}

/// The checks and situations of one scenario, or of a whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Coverage {
    /// By rule id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: BTreeMap<CoverageId, Tally>,
    /// By situation id: how many times it was reached.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub situations: BTreeMap<CoverageId, u64>,
}

impl Coverage {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.situations.is_empty()
    }

    /// Adds to `rule`'s tally: one lookup where the rule has one (every
    /// check after its first), an insertion otherwise.
    fn count(&mut self, rule: &CoverageId, add: Tally) {
        if let Some(t) = self.rules.get_mut(rule.as_ref()) {
            t.checked += add.checked;
            t.passed += add.passed;
            t.broken += add.broken;
        } else {
            self.rules.insert(rule.clone(), add);
        }
    }

    /// A check of `rule` ran and held.
    pub fn passed(&mut self, rule: &'static str) {
        self.count(
            &Cow::Borrowed(rule),
            Tally {
                checked: 1,
                passed: 1,
                broken: 0,
            },
        );
    }

    /// A check of `rule` ran and the bot broke it (one finding).
    pub fn broken(&mut self, rule: &'static str) {
        self.count(
            &Cow::Borrowed(rule),
            Tally {
                checked: 1,
                passed: 0,
                broken: 1,
            },
        );
    }

    /// Whether any check of `rule` was broken here.
    pub fn was_broken(&self, rule: &str) -> bool {
        self.rules.get(rule).is_some_and(|t| t.broken > 0)
    }

    /// A situation reached `times` times.
    pub fn reached(&mut self, situation: &'static str, times: u64) {
        self.reach(&Cow::Borrowed(situation), times);
    }

    fn reach(&mut self, situation: &CoverageId, times: u64) {
        match self.situations.get_mut(situation.as_ref()) {
            Some(n) => *n += times,
            None => {
                self.situations.insert(situation.clone(), times);
            }
        }
    }

    /// Adds another scenario's counts to these.
    pub fn add(&mut self, other: &Coverage) {
        for (id, t) in &other.rules {
            self.count(id, *t);
        }
        for (id, n) in &other.situations {
            self.reach(id, *n);
        }
    }
}

/// The checks a scenario found kept, counted as it runs and added to its
/// [`Coverage`] when it ends ([`Passes::add_to`]). A check is named by its
/// catalogue's `&'static str`, so counting one hashes two words, not a
/// string: counting into the `Coverage` map straight away compared rule
/// ids with `memcmp` some six times per check, 3.4 % of a generated Kalah
/// run's instructions (docs/performance.md).
#[derive(Clone, Debug, Default)]
pub struct Passes {
    /// By the id's address and length (two constants of one text are two
    /// slots; a literal the linker merged into a longer one is not the
    /// longer one), hashed with foldhash: a judgement hands over some ten
    /// ids per reply, and a scan of the slots for each cost some 80
    /// instructions apiece in a generated Kalah game.
    rules: HashMap<(usize, usize), (crate::verdict::RuleId, u64), foldhash::fast::FixedState>,
    /// Whole areas (`Catalogue::area`), each counted by its slice's address.
    areas: Vec<(&'static [crate::verdict::RuleId], u64)>,
}

impl Passes {
    /// A check of `rule` ran and held.
    pub fn passed(&mut self, rule: crate::verdict::RuleId) {
        self.rules
            .entry((rule.as_ptr() as usize, rule.len()))
            .or_insert((rule, 0))
            .1 += 1;
    }

    /// A check of each of `rules`, a whole area of a catalogue, ran and
    /// held: as many `passed` calls, counted as one.
    pub fn passed_all(&mut self, rules: &'static [crate::verdict::RuleId]) {
        if rules.is_empty() {
            return;
        }
        match self.areas.iter_mut().find(|(a, _)| std::ptr::eq(*a, rules)) {
            Some((_, n)) => *n += 1,
            None => self.areas.push((rules, 1)),
        }
    }

    /// Adds the counts to `coverage`, and starts again from none.
    pub fn add_to(&mut self, coverage: &mut Coverage) {
        let areas = self
            .areas
            .drain(..)
            .flat_map(|(rules, n)| rules.iter().map(move |r| (*r, n)));
        for (rule, n) in self.rules.drain().map(|(_, kept)| kept).chain(areas) {
            coverage.count(
                &Cow::Borrowed(rule),
                Tally {
                    checked: n,
                    passed: n,
                    broken: 0,
                },
            );
        }
    }
}

/// The situations a session reached, counted as the game goes (the session
/// keeps one and hands it to the controller at the end, `Session::reached`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reached(BTreeMap<&'static str, u64>);

impl Reached {
    pub const fn new() -> Reached {
        Reached(BTreeMap::new())
    }

    pub fn hit(&mut self, situation: &'static Situation) {
        *self.0.entry(situation.id).or_default() += 1;
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.0.iter().map(|(id, n)| (*id, *n))
    }

    /// Whether this situation was reached here.
    pub fn has(&self, situation: &Situation) -> bool {
        self.0.contains_key(situation.id)
    }
}

/// What a generated game aims at (`--games`, docs/coverage.md): the
/// situations the run had reached before it. Every other situation its game
/// declares is wanted, until the game itself reaches it; protocheck's own
/// choices prefer the ones that reach a wanted situation
/// ([`Aims::choose`]), and fall back to the opponent's usual choice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aims {
    reached: BTreeSet<CoverageId>,
}

/// How many generated games (in suite order) a game is behind the ones whose
/// coverage it sees: game `p` aims at what games `0..=p-LAG` reached. So up
/// to `LAG` generated games run side by side, and what each sees depends
/// only on the seed and on those games, never on `--jobs` or timing.
pub const AIM_LAG: usize = 4;

impl Aims {
    /// The aims of a game after these earlier games' counts.
    pub fn after<'a>(earlier: impl IntoIterator<Item = &'a Coverage>) -> Aims {
        let mut reached = BTreeSet::new();
        for c in earlier {
            reached.extend(
                c.situations
                    .iter()
                    .filter(|(_, n)| **n > 0)
                    .map(|(id, _)| id.clone()),
            );
        }
        Aims { reached }
    }

    /// The aims of a game whose run before it reached these situations
    /// (as [`Aims::reached`] lists them: a replay of an aimed game).
    pub fn past<'a>(reached: impl IntoIterator<Item = &'a str>) -> Aims {
        Aims {
            reached: reached
                .into_iter()
                .map(|id| Cow::Owned(id.to_string()))
                .collect(),
        }
    }

    /// The situations the run had reached before this game, sorted.
    pub fn reached(&self) -> impl Iterator<Item = &str> {
        self.reached.iter().map(|id| id.as_ref())
    }

    /// Whether `situation` is still wanted: neither the run before this
    /// game nor this game so far (`own`) reached it.
    pub fn wants(&self, situation: &Situation, own: &Reached) -> bool {
        !self.reached.contains(situation.id) && !own.has(situation)
    }

    /// Of protocheck's legal choices, each with the situations it would
    /// reach, the first of those that reach the most wanted situations;
    /// `None` when none reaches any (the caller makes its usual choice).
    /// Ties go to the earlier choice, so the pick is a function of the
    /// choices' order and the aims alone.
    pub fn choose<T>(
        &self,
        own: &Reached,
        choices: impl IntoIterator<Item = (T, Vec<&'static Situation>)>,
    ) -> Option<T> {
        let mut best: Option<(usize, T)> = None;
        for (choice, reaches) in choices {
            let mut wanted: Vec<&str> = reaches
                .iter()
                .filter(|s| self.wants(s, own))
                .map(|s| s.id)
                .collect();
            wanted.sort_unstable();
            wanted.dedup();
            let n = wanted.len();
            if n > 0 && best.as_ref().is_none_or(|(b, _)| n > *b) {
                best = Some((n, choice));
            }
        }
        best.map(|(_, c)| c)
    }
}

/// One row of the coverage table: a rule of the catalogue or a declared
/// situation, with its counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Row {
    pub id: String,
    /// `rule` or `situation`.
    pub kind: RowKind,
    pub checked: u64,
    pub passed: u64,
    pub broken: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RowKind {
    Rule,
    Situation,
}

/// What a game declares for coverage: the rules it checks and the
/// situations worth reaching. Every `games::Game` is one; here, so that
/// coverage sits below the games that count into it.
pub trait Declared {
    fn declared_rules(&self) -> &'static [&'static RuleInfo];
    fn declared_situations(&self) -> &'static [&'static Situation];
}

/// A run's coverage measured against what its game declares: every rule of
/// the catalogue and every situation, with their counts (zero where never
/// reached), in the catalogue's and the declaration's order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Summary {
    pub rows: Vec<Row>,
}

impl Summary {
    pub fn new<G: Declared + ?Sized>(game: &G, coverage: &Coverage) -> Summary {
        let mut rows = Vec::new();
        for rule in game.declared_rules() {
            let t = coverage.rules.get(rule.id).copied().unwrap_or_default();
            rows.push(Row {
                id: rule.id.to_string(),
                kind: RowKind::Rule,
                checked: t.checked,
                passed: t.passed,
                broken: t.broken,
            });
        }
        for s in game.declared_situations() {
            let n = coverage.situations.get(s.id).copied().unwrap_or(0);
            rows.push(Row {
                id: s.id.to_string(),
                kind: RowKind::Situation,
                checked: n,
                passed: n,
                broken: 0,
            });
        }
        Summary { rows }
    }

    fn of_kind(&self, kind: RowKind) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(move |r| r.kind == kind)
    }

    /// (rules checked at least once, rules in the catalogue).
    pub fn rules(&self) -> (usize, usize) {
        let all = self.of_kind(RowKind::Rule).count();
        let hit = self
            .of_kind(RowKind::Rule)
            .filter(|r| r.checked > 0)
            .count();
        (hit, all)
    }

    /// (situations reached at least once, situations declared).
    pub fn situations(&self) -> (usize, usize) {
        let all = self.of_kind(RowKind::Situation).count();
        let hit = self
            .of_kind(RowKind::Situation)
            .filter(|r| r.checked > 0)
            .count();
        (hit, all)
    }

    /// The ids never checked or reached, rules first.
    pub fn never(&self) -> Vec<&str> {
        self.rows
            .iter()
            .filter(|r| r.checked == 0)
            .map(|r| r.id.as_str())
            .collect()
    }

    /// The human report's line: `coverage: 41/44 rules checked, 17/19
    /// situations reached; never: kalah.swap.late, …` (at most `shown` ids
    /// named).
    pub fn line(&self, shown: usize) -> String {
        let (rh, ra) = self.rules();
        let (sh, sa) = self.situations();
        let mut line = format!("coverage: {rh}/{ra} rules checked, {sh}/{sa} situations reached");
        let never = self.never();
        if !never.is_empty() {
            line.push_str("; never: ");
            line.push_str(
                &never
                    .iter()
                    .take(shown)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            if never.len() > shown {
                line.push_str(&format!(", … ({} more)", never.len() - shown));
            }
        }
        line
    }

    /// Of `required` ids (rules or situations), the ones this run never
    /// checked or reached; an id the game does not know is missed too.
    pub fn missing<'a>(&self, required: &'a [String]) -> Vec<&'a str> {
        required
            .iter()
            .filter(|id| !self.rows.iter().any(|r| &r.id == *id && r.checked > 0))
            .map(String::as_str)
            .collect()
    }

    /// Whether the game knows this id as a rule or a situation.
    pub fn knows(&self, id: &str) -> bool {
        self.rows.iter().any(|r| r.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_add_up_and_a_summary_lists_what_was_never_checked() {
        let mut a = Coverage::default();
        a.passed("kalah.move.empty-hole");
        a.broken("kalah.move.empty-hole");
        a.reached("kalah.capture.any", 2);
        let mut b = Coverage::default();
        b.passed("kalah.move.empty-hole");
        b.add(&a);
        assert_eq!(
            b.rules["kalah.move.empty-hole"],
            Tally {
                checked: 3,
                passed: 2,
                broken: 1
            }
        );
        let game = crate::games::by_id("kalah").unwrap();
        let s = Summary::new(game, &b);
        let (hit, all) = s.rules();
        assert_eq!(hit, 1);
        assert_eq!(all, game.facts().catalogue.all().len());
        assert_eq!(s.situations().0, 1);
        assert!(s.never().contains(&"kalah.move.hole-range"));
        assert!(!s.never().contains(&"kalah.capture.any"));
        let line = s.line(2);
        assert!(
            line.starts_with(&format!("coverage: 1/{all} rules checked, 1/")),
            "{line}"
        );
        assert!(line.contains("more)"), "{line}");
        let required = vec![
            "kalah.capture.any".to_string(),
            "kalah.swap.bot-swapped".into(),
        ];
        assert_eq!(s.missing(&required), vec!["kalah.swap.bot-swapped"]);
    }

    #[test]
    fn passes_counted_by_pointer_add_up_as_the_map_counts_them() {
        let mut direct = Coverage::default();
        let mut passes = Passes::default();
        let same_text: &'static str = Box::leak(String::from("io.timeout").into_boxed_str());
        for rule in [
            "io.timeout",
            "kalah.move.empty-hole",
            "io.timeout",
            same_text,
        ] {
            direct.passed(rule);
            passes.passed(rule);
        }
        let mut folded = Coverage::default();
        folded.broken("io.timeout");
        direct.broken("io.timeout");
        passes.add_to(&mut folded);
        assert_eq!(folded, direct);
        assert_eq!(folded.rules["io.timeout"].checked, 4);
        // Added once: nothing is left to add.
        passes.add_to(&mut folded);
        assert_eq!(folded, direct);
    }

    #[test]
    fn ids_at_one_address_with_different_lengths_are_different_rules() {
        // What a linker that merges a literal into a longer one makes.
        let long: &'static str = "g.move.far";
        let short: &'static str = &long[..6];
        assert_eq!(long.as_ptr(), short.as_ptr());
        let mut passes = Passes::default();
        passes.passed(long);
        passes.passed(short);
        passes.passed(long);
        let mut folded = Coverage::default();
        passes.add_to(&mut folded);
        assert_eq!(folded.rules["g.move.far"].passed, 2);
        assert_eq!(folded.rules["g.move"].passed, 1);
        assert_eq!(folded.rules.len(), 2);
    }

    #[test]
    fn an_area_counted_as_one_set_adds_up_as_its_rules_counted_one_by_one() {
        static AREA: [&str; 2] = ["g.move.a", "g.move.b"];
        static OTHER: [&str; 1] = ["g.move.a"];
        let mut direct = Coverage::default();
        let mut passes = Passes::default();
        for set in [&AREA[..], &OTHER[..], &AREA[..]] {
            for rule in set {
                direct.passed(rule);
            }
            passes.passed_all(set);
        }
        direct.passed("g.move.b");
        passes.passed("g.move.b");
        let mut folded = Coverage::default();
        passes.add_to(&mut folded);
        assert_eq!(folded, direct);
        assert_eq!(folded.rules["g.move.a"].checked, 3);
        assert_eq!(folded.rules["g.move.b"].passed, 3);
        passes.add_to(&mut folded);
        assert_eq!(folded, direct);
    }

    static A: Situation = Situation {
        id: "g.a",
        what: "a",
    };
    static B: Situation = Situation {
        id: "g.b",
        what: "b",
    };

    #[test]
    fn a_choice_that_reaches_an_uncovered_situation_is_preferred() {
        let mut before = Coverage::default();
        before.reached(A.id, 3);
        let aims = Aims::after([&before]);
        let own = Reached::new();
        // A was reached by an earlier game: only the choice reaching B counts.
        let choices = vec![("a", vec![&A]), ("none", vec![]), ("b", vec![&B])];
        assert_eq!(aims.choose(&own, choices.clone()), Some("b"));
        // Once this game reached B itself, nothing is wanted: the usual choice.
        let mut own = Reached::new();
        own.hit(&B);
        assert_eq!(aims.choose(&own, choices), None);
        // With nothing reached, the choice reaching the most wins; ties go
        // to the earlier one.
        let fresh = Aims::default();
        let own = Reached::new();
        let choices = vec![
            ("a", vec![&A]),
            ("ab", vec![&A, &B, &A]),
            ("ba", vec![&B, &A]),
        ];
        assert_eq!(fresh.choose(&own, choices), Some("ab"));
        // A situation counted zero times was not reached.
        let mut zero = Coverage::default();
        zero.reached(B.id, 0);
        assert!(Aims::after([&zero]).wants(&B, &own));
    }

    #[test]
    fn coverage_reads_back_as_written() {
        let mut c = Coverage::default();
        c.passed("io.timeout");
        c.reached("quoridor.pawn.jump", 1);
        let text = serde_json::to_string(&c).unwrap();
        let back: Coverage = serde_json::from_str(&text).unwrap();
        assert_eq!(back, c);
        let empty: Coverage = serde_json::from_str("{}").unwrap();
        assert!(empty.is_empty());
    }
}
