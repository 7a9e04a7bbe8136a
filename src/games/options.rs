//! A game's own options: each game declares a typed struct (serde +
//! schemars) in its folder; the core carries the values as written, by
//! name, and asks the game's table to check and read them. The core never
//! names a game's option: the command-line flags, `protocheck.toml` keys,
//! scenario `options:` and the scenario JSON Schema all come from the tables.

use super::OptionError;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::any::TypeId;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Mutex;

pub use crate::scenario_model::{GameOptionValues, read, value_of};

/// The options of one game, as the core sees them.
pub trait OptionTable: Sync {
    /// The JSON Schema of the game's options (an object schema).
    fn schema(&self) -> schemars::Schema;
    /// The same, within a larger schema (its definitions go to `generator`).
    fn object_schema(&self, generator: &mut schemars::SchemaGenerator) -> schemars::Schema;
    /// Check one option's value by itself (`Err`: why it is not valid).
    fn check_value(&self, name: &str, value: &Value) -> Result<(), OptionError>;
    /// The options that are also command-line flags (`--name`) and
    /// `protocheck.toml` keys.
    fn flags(&self) -> &'static [&'static str];
    /// Why an option this game does not take means nothing here, for the
    /// refusal (e.g. `players` in a two-player game).
    fn note(&self, name: &str) -> Option<&'static str>;
    /// The names of the options, in the order of the schema.
    fn names(&self) -> &[String];
}

/// A game's options table from its typed struct `T` (every field optional,
/// `deny_unknown_fields`).
pub struct Typed<T> {
    pub flags: &'static [&'static str],
    pub notes: &'static [(&'static str, &'static str)],
    pub of: PhantomData<fn() -> T>,
}

impl<T> Typed<T> {
    pub const fn new(
        flags: &'static [&'static str],
        notes: &'static [(&'static str, &'static str)],
    ) -> Typed<T> {
        Typed {
            flags,
            notes,
            of: PhantomData,
        }
    }
}

/// Each options struct's property names, made once per process: generating
/// the schema for them took about 65 000 instructions, and every scenario
/// that sets a game option checks its names (10 % of a Kalah suite's run).
/// By type, not in the table: the tables are constants in the games' facts.
static NAMES: Mutex<BTreeMap<TypeId, &'static [String]>> = Mutex::new(BTreeMap::new());

impl<T: DeserializeOwned + schemars::JsonSchema + 'static> OptionTable for Typed<T> {
    fn schema(&self) -> schemars::Schema {
        schemars::generate::SchemaSettings::draft2020_12()
            .into_generator()
            .into_root_schema_for::<T>()
    }

    fn object_schema(&self, generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }

    fn check_value(&self, name: &str, value: &Value) -> Result<(), OptionError> {
        let mut alone = GameOptionValues::new();
        alone.insert(name.to_string(), value.clone());
        read::<T>(&alone)
            .map(drop)
            .map_err(|e| OptionError::Unreadable(e.to_string()))
    }

    fn flags(&self) -> &'static [&'static str] {
        self.flags
    }

    fn note(&self, name: &str) -> Option<&'static str> {
        self.notes.iter().find(|(n, _)| *n == name).map(|(_, w)| *w)
    }

    fn names(&self) -> &[String] {
        let mut made = NAMES.lock().unwrap_or_else(|e| e.into_inner());
        made.entry(TypeId::of::<T>()).or_insert_with(|| {
            let names: Vec<String> = self
                .schema()
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            // One small list per options type, for the process's life.
            Vec::leak(names)
        })
    }
}

/// The options every game takes, checked by the core (see `scenario::model`).
pub const CORE: &[&str] = &["seed", "timeout", "silence"];

/// Why option `name` is refused by `game`: the same wording for every game,
/// with the game's own note, the games that do take it, the options it
/// takes and the nearest of them.
pub fn refusal(game: &dyn super::Game, name: &str) -> String {
    let table = game.facts().options;
    let takes: Vec<String> = table
        .names()
        .iter()
        .cloned()
        .chain(CORE.iter().map(|s| s.to_string()))
        .collect();
    let owners: Vec<&str> = super::ALL
        .iter()
        .filter(|g| g.id() != game.id() && g.facts().options.names().iter().any(|n| n == name))
        .map(|g| g.facts().title)
        .collect();
    let note = table.note(name);
    let why = match (note, owners.is_empty()) {
        (None, false) => format!(" (it is one of the {} options)", and_list(&owners)),
        _ => String::new(),
    };
    let note = note.map(|n| format!("{n}: ")).unwrap_or_default();
    let quoted: Vec<String> = takes.iter().map(|t| format!("`{t}`")).collect();
    let list = and_list(&quoted);
    let candidates: Vec<&str> = takes.iter().map(String::as_str).collect();
    let hint = crate::suggest::nearest(name, &candidates)
        .filter(|_| owners.is_empty())
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default();
    format!(
        "{note}`{name}` means nothing in {}{why}, which takes {list}{hint}",
        game.id()
    )
}

/// The game's typed options from `options`, every name checked first (so
/// an option the game does not take gets the one wording of [`refusal`]).
pub fn typed<T: DeserializeOwned>(
    game: &dyn super::Game,
    options: &crate::scenario_model::Options,
) -> Result<T, OptionError> {
    check(game, &options.game).map_err(|r| OptionError::Refused(r.why))?;
    read(&options.game).map_err(|e| OptionError::Unreadable(e.to_string()))
}

/// `a`, `a and b`, `a, b and c`.
fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
        Some((only, _)) => only.as_ref().to_string(),
        None => String::new(),
    }
}

/// An option refused by a game.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    pub name: String,
    /// The game does not take the name (else: the value is not valid).
    pub unknown: bool,
    pub why: String,
}

/// Check a game's options as written: every name known to `game` and every
/// value valid by itself.
pub fn check(game: &dyn super::Game, values: &GameOptionValues) -> Result<(), Refused> {
    let table = game.facts().options;
    let known = table.names();
    for (name, value) in values {
        if !known.contains(name) {
            return Err(Refused {
                name: name.clone(),
                unknown: true,
                why: refusal(game, name),
            });
        }
        table.check_value(name, value).map_err(|e| Refused {
            name: name.clone(),
            unknown: false,
            why: format!("options.{name}: {e}"),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(&str, Value)]) -> GameOptionValues {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn every_game_refuses_an_unknown_option_with_the_same_wording() {
        for game in super::super::ALL {
            let Refused { name, unknown, why } =
                check(*game, &values(&[("holez", Value::from(3))])).unwrap_err();
            assert_eq!((name.as_str(), unknown), ("holez", true));
            let start = format!("`holez` means nothing in {}", game.id());
            assert!(why.starts_with(&start), "{why}");
            assert!(why.contains("`seed`, `timeout` and `silence`"), "{why}");
        }
    }

    #[test]
    fn another_games_option_is_named_as_theirs_and_a_typo_gets_a_hint() {
        let quoridor = crate::games::by_id("quoridor").unwrap();
        let why = check(quoridor, &values(&[("holes", Value::from(6))]))
            .unwrap_err()
            .why;
        assert!(why.contains("(it is one of the Kalah options)"), "{why}");
        let kalah = crate::games::by_id("kalah").unwrap();
        let why = check(kalah, &values(&[("players", Value::from(3))]))
            .unwrap_err()
            .why;
        assert!(why.starts_with("Kalah is a two-player game"), "{why}");
        let why = check(kalah, &values(&[("holez", Value::from(3))]))
            .unwrap_err()
            .why;
        assert!(why.ends_with("(did you mean `holes`?)"), "{why}");
    }

    #[test]
    fn a_known_option_with_a_bad_value_is_refused_by_its_type() {
        let kalah = crate::games::by_id("kalah").unwrap();
        assert_eq!(check(kalah, &values(&[("holes", Value::from(6))])), Ok(()));
        let Refused { name, unknown, why } =
            check(kalah, &values(&[("swap", Value::from("sometimes"))])).unwrap_err();
        assert_eq!((name.as_str(), unknown), ("swap", false));
        assert!(
            why.starts_with("options.swap: unknown variant `sometimes`"),
            "{why}"
        );
    }
}
