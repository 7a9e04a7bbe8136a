//! Rules every game shares, defined once, and how a game's catalogue is
//! built from them.
//!
//! Two kinds:
//! - the session `io.*` rules (`io.timeout`, `io.crash`, …): every game's
//!   session reports them, and each game words them for its own protocol
//!   (its rules digest says what "on time" or "unexpected" means there) with
//!   [`RuleInfo::worded`]; the id and the default severity live here.
//! - the harness rules, which the controller reports itself, in the same
//!   words for every game: protocheck's bounds on output and resources, and
//!   a scripted expectation that did not hold.
//!
//! A game lists only its own rows ([`Catalogue::new`]); [`Catalogue::all`]
//! adds each session rule the game did not word, and every harness rule, so
//! no game can miss one.

use crate::verdict::{RuleId, RuleInfo, Severity};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A due reply that did not arrive, complete, in time.
pub const IO_TIMEOUT: RuleInfo = RuleInfo {
    id: "io.timeout",
    severity: Severity::Fail,
    spec: "Every reply that is due arrives complete within `--timeout` (`--startup-timeout` for the first).",
};

/// The bot exited or closed its streams while the game was still running.
pub const IO_CRASH: RuleInfo = RuleInfo {
    id: "io.crash",
    severity: Severity::Fail,
    spec: "The bot keeps running, with its input and output open, until the game is over.",
};

/// Output nobody asked for.
pub const IO_UNEXPECTED_OUTPUT: RuleInfo = RuleInfo {
    id: "io.unexpected-output",
    severity: Severity::Fail,
    spec: "The bot writes exactly the replies that are due, and nothing else.",
};

/// Bytes that are not UTF-8.
pub const IO_INVALID_UTF8: RuleInfo = RuleInfo {
    id: "io.invalid-utf8",
    severity: Severity::Fail,
    spec: "Everything the bot writes is valid UTF-8.",
};

/// A bot still running after the game ended.
pub const IO_NO_EXIT: RuleInfo = RuleInfo {
    id: "io.no-exit",
    severity: Severity::Warn,
    spec: "The bot exits by itself within the grace period after the game is over.",
};

/// A message over the length cap (games that frame by lines; a game that
/// frames otherwise names its own rule in `Game::line_too_long`).
pub const IO_LINE_TOO_LONG: RuleInfo = RuleInfo {
    id: "io.line-too-long",
    severity: Severity::Fail,
    spec: "No output line exceeds 64 KiB.",
};

/// The `io.*` rules every game's session reports. A game that does not word
/// one gets it in the words above.
pub static SESSION_IO: &[&RuleInfo] = &[
    &IO_TIMEOUT,
    &IO_CRASH,
    &IO_UNEXPECTED_OUTPUT,
    &IO_INVALID_UTF8,
    &IO_NO_EXIT,
];

/// A bot that keeps writing output nobody asked for.
pub static IO_OUTPUT_FLOOD: RuleInfo = RuleInfo {
    id: "io.output-flood",
    severity: Severity::Fail,
    spec: "The bot does not flood output nobody asked for: more than 10,000 lines outside any due reply in one scenario ends the scenario and the bot is stopped.",
};

/// A bot that writes more than `--max-output` bytes in one scenario.
pub static IO_OUTPUT_LIMIT: RuleInfo = RuleInfo {
    id: "io.output-limit",
    severity: Severity::Fail,
    spec: "The bot writes at most `--max-output` bytes (default 64 MiB) to stdout in one scenario; beyond it the scenario ends and the bot is stopped.",
};

/// The rule for a scripted `expect: {reply}` that did not hold.
pub static EXPECT_REPLY: RuleInfo = RuleInfo {
    id: "scenario.expect.reply",
    severity: Severity::Fail,
    spec: "The reply is exactly what the scenario expects.",
};

/// The rule for a scripted `expect: {matches}` that did not hold.
pub static EXPECT_MATCHES: RuleInfo = RuleInfo {
    id: "scenario.expect.matches",
    severity: Severity::Fail,
    spec: "The reply matches the scenario's regular expression.",
};

/// The rules the controller reports itself, the same in every game: output
/// and resource bounds (harness policy, not protocol rules, so no rules
/// digest lists them) and scripted expectations.
pub static HARNESS: &[&RuleInfo] = &[
    &IO_OUTPUT_FLOOD,
    &IO_OUTPUT_LIMIT,
    &crate::transport::limits::IO_RESOURCE_LIMIT,
    &EXPECT_REPLY,
    &EXPECT_MATCHES,
];

impl RuleInfo {
    /// This shared rule as a game words it for its protocol, with the
    /// shared default severity.
    pub const fn worded(self, spec: &'static str) -> RuleInfo {
        RuleInfo { spec, ..self }
    }

    /// This shared rule as a game words and weighs it (where the game's
    /// reference tolerates what the default fails, or the reverse).
    pub const fn worded_as(self, severity: Severity, spec: &'static str) -> RuleInfo {
        RuleInfo {
            severity,
            spec,
            ..self
        }
    }
}

/// Some areas of one catalogue, named once where a game judges a kind of
/// reply that keeps them all (`static BUY_KEPT: KeptAreas = …`), looked up
/// on first use: a judgement hands over [`Self::sets`] without a lookup.
pub struct KeptAreas {
    catalogue: &'static Catalogue,
    names: &'static [&'static str],
    sets: OnceLock<Vec<&'static [RuleId]>>,
}

impl KeptAreas {
    pub const fn new(catalogue: &'static Catalogue, names: &'static [&'static str]) -> KeptAreas {
        KeptAreas {
            catalogue,
            names,
            sets: OnceLock::new(),
        }
    }

    /// [`Catalogue::areas`] of the names.
    pub fn sets(&'static self) -> &'static [&'static [RuleId]] {
        self.sets.get_or_init(|| self.catalogue.areas(self.names))
    }
}

/// One game's check catalogue: its own rows (in the order of its rules
/// digest's table, the shared ids it words included), completed by the
/// shared rules on first use.
pub struct Catalogue {
    own: &'static [&'static RuleInfo],
    all: OnceLock<Vec<&'static RuleInfo>>,
    /// The rules of each area, in catalogue order: built once, because a
    /// game asks for them on every reply it judges (see [`Self::area`]).
    by_area: OnceLock<BTreeMap<&'static str, Vec<RuleId>>>,
}

impl Catalogue {
    pub const fn new(own: &'static [&'static RuleInfo]) -> Catalogue {
        Catalogue {
            own,
            all: OnceLock::new(),
            by_area: OnceLock::new(),
        }
    }

    /// The game's own rows, without the shared rules it did not word.
    pub fn own(&self) -> &'static [&'static RuleInfo] {
        self.own
    }

    /// Every rule of the game: its own rows, then each session rule it did
    /// not word, then the harness rules.
    pub fn all(&self) -> &[&'static RuleInfo] {
        self.all.get_or_init(|| {
            let mut all = self.own.to_vec();
            for shared in SESSION_IO.iter().chain(HARNESS) {
                if !all.iter().any(|r| r.id == shared.id) {
                    all.push(shared);
                }
            }
            all
        })
    }

    /// The rules of one area (the part of an id after the game's name:
    /// `grammar` holds `dominion-text.grammar.case`), in catalogue order,
    /// the shared `io.` rules never in one: for a game whose judgement of a
    /// reply kind checks every rule of some areas, what a reply of that kind
    /// kept when no finding was made about it (`Judged::passed_areas`, the
    /// coverage report). An area the catalogue lacks has no rules.
    ///
    /// From an index built on first use, and counted as one set by
    /// `coverage::Passes`: listing and counting every rule of an area one by
    /// one, on every reply, was most of the cost of counting coverage in the
    /// Dominion and Evolution suites (docs/performance.md).
    pub fn area(&'static self, area: &str) -> &'static [RuleId] {
        let by_area = self.by_area.get_or_init(|| {
            let mut by_area: BTreeMap<&'static str, Vec<RuleId>> = BTreeMap::new();
            for rule in self.all().iter().filter(|r| !r.id.starts_with("io.")) {
                if let Some(area) = rule.id.split('.').nth(1) {
                    by_area.entry(area).or_default().push(rule.id);
                }
            }
            by_area
        });
        by_area.get(area).map_or(&[], Vec::as_slice)
    }

    /// [`Self::area`] of each of these areas, an area named twice once.
    pub fn areas(&'static self, areas: &[&str]) -> Vec<&'static [RuleId]> {
        let mut sets: Vec<&'static [RuleId]> = Vec::with_capacity(areas.len());
        for area in areas {
            let rules = self.area(area);
            if !rules.is_empty() && !sets.iter().any(|s| std::ptr::eq(*s, rules)) {
                sets.push(rules);
            }
        }
        sets
    }

    /// The rule with this id, if the game has it (for `protocheck explain`
    /// and for scenario files that name a rule).
    pub fn by_id(&self, id: &str) -> Option<&'static RuleInfo> {
        self.all().iter().copied().find(|r| r.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static OWN_TIMEOUT: RuleInfo = IO_TIMEOUT.worded_as(Severity::Warn, "Replies come in time.");
    static GAME_RULE: RuleInfo = RuleInfo {
        id: "g.move.bad",
        severity: Severity::Fail,
        spec: "A move is good.",
    };
    static CATALOGUE: Catalogue = Catalogue::new(&[&GAME_RULE, &OWN_TIMEOUT]);

    #[test]
    fn a_catalogue_is_the_games_rows_then_the_shared_rules_it_did_not_word() {
        let ids: Vec<&str> = CATALOGUE.all().iter().map(|r| r.id).collect();
        assert_eq!(
            ids,
            [
                "g.move.bad",
                "io.timeout",
                "io.crash",
                "io.unexpected-output",
                "io.invalid-utf8",
                "io.no-exit",
                "io.output-flood",
                "io.output-limit",
                "io.resource-limit",
                "scenario.expect.reply",
                "scenario.expect.matches",
            ]
        );
        // The game's wording wins over the shared default.
        let timeout = CATALOGUE.by_id("io.timeout").unwrap();
        assert!(std::ptr::eq(timeout, &OWN_TIMEOUT));
        assert_eq!(timeout.severity, Severity::Warn);
        assert_eq!(timeout.spec, "Replies come in time.");
        assert_eq!(CATALOGUE.by_id("io.crash").unwrap().spec, IO_CRASH.spec);
        assert_eq!(CATALOGUE.own().len(), 2);
        assert_eq!(CATALOGUE.by_id("g.nope"), None);
    }

    static MOVE_FAR: RuleInfo = RuleInfo {
        id: "g.move.far",
        severity: Severity::Fail,
        spec: "A move is near.",
    };
    static FRAME_LINE: RuleInfo = RuleInfo {
        id: "g.frame.line",
        severity: Severity::Fail,
        spec: "A reply is one line.",
    };
    static AREAS: Catalogue = Catalogue::new(&[&GAME_RULE, &FRAME_LINE, &MOVE_FAR]);

    #[test]
    fn an_areas_rules_are_its_ids_in_catalogue_order_without_the_io_rules() {
        assert_eq!(AREAS.area("move"), ["g.move.bad", "g.move.far"]);
        assert_eq!(AREAS.area("frame"), ["g.frame.line"]);
        // `io.timeout`'s second part is `timeout`: the shared io rules are
        // never an area's, whatever their id.
        assert!(AREAS.area("timeout").is_empty());
        assert!(AREAS.area("crash").is_empty());
        // `scenario.expect.reply` is in the area `expect` like any other id.
        assert_eq!(
            AREAS.area("expect"),
            ["scenario.expect.reply", "scenario.expect.matches"]
        );
        assert!(AREAS.area("nowhere").is_empty());
        // The index agrees with a scan of the whole catalogue.
        for area in ["move", "frame", "expect"] {
            let scanned: Vec<&str> = AREAS
                .all()
                .iter()
                .map(|r| r.id)
                .filter(|id| !id.starts_with("io.") && id.split('.').nth(1) == Some(area))
                .collect();
            assert_eq!(AREAS.area(area), scanned, "{area}");
        }
        // The same slice every time: `coverage::Passes` counts it by pointer.
        assert!(std::ptr::eq(AREAS.area("move"), AREAS.area("move")));
    }

    #[test]
    fn kept_areas_are_the_catalogues_areas_of_their_names() {
        static KEPT: KeptAreas = KeptAreas::new(&AREAS, &["move", "nowhere", "frame"]);
        assert_eq!(KEPT.sets(), AREAS.areas(&["move", "frame"]).as_slice());
        assert!(std::ptr::eq(KEPT.sets(), KEPT.sets()));
    }

    #[test]
    fn areas_gives_each_named_area_once_and_leaves_out_empty_ones() {
        let sets = AREAS.areas(&["frame", "move", "frame", "nowhere", "timeout"]);
        assert_eq!(sets.len(), 2);
        assert!(std::ptr::eq(sets[0], AREAS.area("frame")));
        assert!(std::ptr::eq(sets[1], AREAS.area("move")));
        assert!(AREAS.areas(&[]).is_empty());
    }

    #[test]
    fn worded_keeps_the_id_and_by_default_the_severity() {
        let r = IO_NO_EXIT.worded("Exit after END.");
        assert_eq!(
            (r.id, r.severity, r.spec),
            ("io.no-exit", Severity::Warn, "Exit after END.")
        );
    }
}
