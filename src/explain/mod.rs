//! `protocheck explain <rule-id>`: what a rule asks, why protocheck judges
//! it that way (the truth-order decision of the game's rules digest), a
//! minimal wrong and right exchange, and which built-in scenarios exercise
//! it (computed from the scenarios' `rules:`).
//!
//! The explanations are data, one text file per game next to its catalogue
//! (`src/games/<game>/explain.txt`), parsed at first use; the harness limits
//! shared by every game (`io.output-flood`, …) are explained once, in
//! `harness.txt` here. Tests prove every catalogue rule has an entry and no
//! entry names an id outside the catalogues.

mod data;
mod render;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod tests;

pub use data::{Entry, Line};
pub use render::{json, text};

use crate::games;
use crate::verdict::RuleInfo;
use std::sync::OnceLock;

/// One rule of one game, explained.
#[derive(Clone, Debug)]
pub struct Explained {
    pub game: &'static str,
    pub rule: &'static RuleInfo,
    pub entry: &'static Entry,
    /// Built-in scenarios that name the rule (`<game>/<file>`).
    pub scenarios: Vec<String>,
    /// For a rule about a reply that never came: [`FLUSH_HINT`].
    pub flush_hint: Option<&'static str>,
}

/// The most common cause of a reply that never arrives, in student bots: it
/// sits in the bot's stdout buffer, flushed at each line on a terminal but
/// only when full once stdout is a pipe.
pub const FLUSH_HINT: &str = "The most common cause in student bots is an \
unflushed reply: on a terminal stdout is flushed at each line, but on a pipe \
(as under protocheck or a real engine) Python, C, C++ and a buffered Java \
writer keep the reply in the bot's buffer until it fills or the bot exits. \
Flush after every reply line.";

/// How to flush after a line, per language (language, line).
pub const FLUSH_LINES: &[(&str, &str)] = &[
    (
        "Python",
        "print(reply, flush=True)   (or sys.stdout.flush() after print)",
    ),
    (
        "Java",
        "out.println(reply); out.flush();   (a PrintWriter or BufferedWriter around System.out keeps lines until flushed)",
    ),
    ("C", "printf(\"%s\\n\", reply); fflush(stdout);"),
    (
        "C++",
        "std::cout << reply << std::endl;   (std::endl flushes; \"\\n\" does not)",
    ),
];

/// True for the rules a silent bot breaks: `io.timeout`, and any rule whose
/// wrong exchange ends with no reply coming.
fn about_a_missing_reply(id: &str, entry: &Entry) -> bool {
    id == "io.timeout"
        || matches!(entry.wrong.last(), Some(Line::Note(note))
            if ["no reply", "no complete reply", "no response"].iter().any(|n| note.starts_with(n)))
}

/// Every game whose rules can be explained (every registered game), with
/// its catalogue.
pub fn catalogues() -> Vec<(&'static str, &'static [&'static RuleInfo])> {
    games::ALL.iter().map(|g| (g.id(), g.catalogue())).collect()
}

/// The explanation data of one game (its own entries; harness limits are
/// looked up in the shared table).
fn entries(game: &str) -> &'static [Entry] {
    static TABLES: OnceLock<Vec<(&'static str, Vec<Entry>)>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        data::sources()
            .into_iter()
            .map(|(game, text)| {
                let parsed = data::parse(text).unwrap_or_else(|e| {
                    // The files are embedded and tested; a parse error is a
                    // build defect, shown rather than hidden.
                    vec![data::broken(&format!("explain data of {game}: {e}"))]
                });
                (game, parsed)
            })
            .collect()
    });
    tables
        .iter()
        .find(|(g, _)| *g == game)
        .map_or(&[], |(_, e)| e.as_slice())
}

/// The entry explaining `id` in `game`: the game's own, else the shared
/// harness entry.
pub fn entry(game: &str, id: &str) -> Option<&'static Entry> {
    entries(game)
        .iter()
        .chain(entries(data::HARNESS))
        .find(|e| e.id == id)
}

/// What `protocheck explain` was asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The rule, as each game that has it defines it (one game unless a
    /// shared `io.*` id).
    Found(Vec<(&'static str, &'static RuleInfo)>),
    /// No such rule: the closest ids.
    Unknown { suggestions: Vec<&'static str> },
    /// The id without its game prefix matches rules of several games.
    Ambiguous(Vec<&'static str>),
    /// The rule exists, but not in the game asked for.
    NotInGame { games: Vec<&'static str> },
}

/// Find `query` (a full id, or an id without its game prefix when that is
/// unique), optionally in one game only.
pub fn lookup(query: &str, game: Option<&str>) -> Lookup {
    let query = query.trim().to_ascii_lowercase();
    let all = catalogues();
    let exact: Vec<(&'static str, &'static RuleInfo)> = all
        .iter()
        .flat_map(|(g, rules)| rules.iter().map(move |r| (*g, *r)))
        .filter(|(_, r)| r.id == query)
        .collect();
    let found = if !exact.is_empty() {
        exact
    } else {
        // `move.empty-hole` for `kalah.move.empty-hole`.
        let unprefixed: Vec<(&'static str, &'static RuleInfo)> = all
            .iter()
            .flat_map(|(g, rules)| rules.iter().map(move |r| (*g, *r)))
            .filter(|(g, r)| {
                r.id.strip_prefix(*g).and_then(|s| s.strip_prefix('.')) == Some(query.as_str())
            })
            .collect();
        let mut ids: Vec<&'static str> = unprefixed.iter().map(|(_, r)| r.id).collect();
        ids.dedup();
        match ids.len() {
            0 => {
                return Lookup::Unknown {
                    suggestions: suggestions(&query, &all),
                };
            }
            1 => unprefixed,
            _ => {
                if let Some(game) = game {
                    let picked: Vec<_> =
                        unprefixed.into_iter().filter(|(g, _)| *g == game).collect();
                    if !picked.is_empty() {
                        return Lookup::Found(picked);
                    }
                }
                return Lookup::Ambiguous(ids);
            }
        }
    };
    match game {
        None => Lookup::Found(found),
        Some(game) => {
            let games: Vec<&'static str> = found.iter().map(|(g, _)| *g).collect();
            let picked: Vec<_> = found.into_iter().filter(|(g, _)| *g == game).collect();
            if picked.is_empty() {
                Lookup::NotInGame { games }
            } else {
                Lookup::Found(picked)
            }
        }
    }
}

/// Up to three ids closest to `query`: ids that contain it (or that it
/// starts), then the nearest by edit distance, within a third of its length.
fn suggestions(
    query: &str,
    all: &[(&'static str, &'static [&'static RuleInfo])],
) -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = all
        .iter()
        .flat_map(|(_, rules)| rules.iter().map(|r| r.id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut scored: Vec<(usize, usize, &'static str)> = ids
        .into_iter()
        .filter_map(|id| {
            let distance = strsim::damerau_levenshtein(query, id);
            let contains = id.contains(query) || (query.len() >= 4 && query.contains(id));
            let close = distance <= 3.max(query.len() / 3);
            (contains || close).then_some((usize::from(!contains), distance, id))
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().take(3).map(|(_, _, id)| id).collect()
}

/// Each game's explanation of this rule, with its exercising scenarios.
pub fn explain(found: &[(&'static str, &'static RuleInfo)]) -> Vec<Explained> {
    found
        .iter()
        .filter_map(|(game, rule)| {
            let entry = entry(game, rule.id)?;
            Some(Explained {
                game,
                rule,
                entry,
                scenarios: exercising(game, rule.id),
                flush_hint: about_a_missing_reply(rule.id, entry).then_some(FLUSH_HINT),
            })
        })
        .collect()
}

/// The built-in scenarios of `game` whose `rules:` name `id`, as
/// `<game>/<file name>`.
pub fn exercising(game: &str, id: &str) -> Vec<String> {
    let prefix = format!("{game}/");
    crate::scenario::builtin::files()
        .iter()
        .filter(|(path, _)| path.starts_with(&prefix))
        .filter_map(|(path, text)| {
            let scenario = crate::scenario::load::parse(text, path, Some(game)).ok()?;
            scenario
                .rules
                .iter()
                .any(|r| r == id)
                .then(|| path.to_string())
        })
        .collect()
}
