//! The scenario language: one YAML document per file. Kept small on purpose:
//! `send` scripted messages, `opponent` moves, `expect` replies, `play` to the
//! end. The game gives these words their protocol meaning.
//!
//! The vocabulary alone, below `games` (which read and write it) and below
//! `scenario` (which reads files into it, checked against the games).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// A game's options as written (kebab-case names and their values); the
/// game's table checks and reads them (`games::options`).
pub type GameOptionValues = serde_json::Map<String, Value>;

/// The game's options as written do not fit the game's type: said as
/// serde says it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GameOptionsError(#[source] serde_json::Error);

/// The game's typed options from the values as written.
pub fn read<T: DeserializeOwned>(values: &GameOptionValues) -> Result<T, GameOptionsError> {
    serde_json::from_value(Value::Object(values.clone())).map_err(GameOptionsError)
}

/// A typed option value as written, for a game that sets one (generated games).
pub fn value_of(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A duration as a scenario writes it (`2s`, `500ms`, `1m 30s`).
pub struct DurationText;

impl schemars::JsonSchema for DurationText {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "duration".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": r"^\s*[0-9]+(\.[0-9]+)?\s*(ns|us|ms|s|sec|secs|m|min|mins|h)(\s+[0-9]+\s*(ns|us|ms|s|m|h))*\s*$"
        })
    }
}

/// Per-scenario settings: the core's own, typed, and the game's, as
/// written (the game checks them at load and reads them typed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Per-reply time limit for this scenario (`2s`, `500ms`).
    pub timeout: Option<Duration>,
    /// How long `expect: silence` listens.
    pub silence: Option<Duration>,
    /// Seed for the built-in opponent's choices.
    pub seed: Option<u64>,
    /// The game's own options by name (see `games::options`).
    pub game: GameOptionValues,
}

impl Options {
    /// These options with the game's option `name` set to `value`.
    pub fn with(mut self, name: &str, value: impl Serialize) -> Options {
        self.game.insert(name.to_string(), value_of(value));
        self
    }

    /// The game's options, typed (`Err`: they do not fit the game's type).
    pub fn of_game<T: serde::de::DeserializeOwned>(&self) -> Result<T, GameOptionsError> {
        read(&self.game)
    }
}

/// The file form: the core's options, then the game's.
impl Serialize for Options {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let duration = |d: &Duration| humantime::format_duration(*d).to_string();
        let mut map = s.serialize_map(None)?;
        if let Some(d) = &self.timeout {
            map.serialize_entry("timeout", &duration(d))?;
        }
        if let Some(d) = &self.silence {
            map.serialize_entry("silence", &duration(d))?;
        }
        if let Some(seed) = &self.seed {
            map.serialize_entry("seed", seed)?;
        }
        for (name, value) in &self.game {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// A uniformly random legal move.
    Random,
    /// The move that gains most at once (Kalah: store seeds; Quoridor:
    /// shortest path with occasional walls).
    Greedy,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SwapPolicy {
    Never,
    Always,
    Random,
}

/// One step of a scenario.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub enum Step {
    /// Send this message verbatim (the transport adds the line terminator).
    /// It is checked against the rules in the tracked state first.
    Send(String),
    /// protocheck's built-in opponent moves: a move in the game's notation
    /// (Kalah: a hole number or `swap`), `auto` for the options' strategy,
    /// or (Kalah) a steered move chosen in the tracked state: `extra-turn`,
    /// `capture`, `lap`, `pass`, `empty-row` (a word step does nothing once
    /// the game is over). dominion-sexp: `auto` (the built-in seats play
    /// until the bot's turn; when the bot is next, its `(move …)` is dealt)
    /// or built-in plays such as `(buy copper) (clean estate)`.
    Opponent(Token),
    /// What the bot must do next.
    Expect(Expect),
    /// Hand over to generated play.
    Play(Play),
    /// Listen for this long; any output counts as unexpected (`300ms`).
    Wait(#[schemars(with = "DurationText")] String),
    /// Close the bot's standard input (it reads end-of-file).
    CloseInput,
}

/// What the bot must do: the core expectations every game knows, or one of
/// the game's own, which that game gives its meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The due reply, judged by the grammar and the rules in the tracked state.
    LegalMove,
    /// The due reply must be exactly this (shown as a diff otherwise).
    Reply(String),
    /// The due reply must match this regular expression.
    Matches(String),
    /// Nothing may arrive within the silence window.
    Silence,
    /// The bot exits by itself within the exit grace period.
    Exit,
    /// An expectation of the game's own, as written (QTP: `success`,
    /// `{ error: TEXT }`). Only a game that lists its word may be given it:
    /// `games::check_expect` refuses it for every other game alike.
    Own(OwnExpect),
}

/// A game's own expectation as the scenario writes it: `word` alone, or
/// `{ word: text }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnExpect {
    pub word: String,
    pub text: Option<String>,
}

impl Expect {
    /// The words of the expectations every game knows.
    pub const CORE_WORDS: &[&str] = &["legal-move", "reply", "matches", "silence", "exit"];

    /// The YAML word of an expectation, for messages.
    pub fn word(&self) -> &str {
        match self {
            Expect::LegalMove => "legal-move",
            Expect::Reply(_) => "reply",
            Expect::Matches(_) => "matches",
            Expect::Silence => "silence",
            Expect::Exit => "exit",
            Expect::Own(own) => &own.word,
        }
    }
}

/// Read as written: a word (`legal-move`, `silence`, `exit`, or a game's own
/// like `success`) or a mapping of one word to its text (`{ reply: TEXT }`,
/// `{ matches: REGEX }`, or a game's own like `{ error: TEXT }`). Whether a
/// game knows an own word is settled once the game is known.
impl<'de> Deserialize<'de> for Expect {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Expect;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an expectation: a word like `legal-move`, or `{ reply: TEXT }`")
            }
            fn visit_str<E: Error>(self, word: &str) -> Result<Expect, E> {
                Ok(match word {
                    "legal-move" => Expect::LegalMove,
                    "silence" => Expect::Silence,
                    "exit" => Expect::Exit,
                    "reply" | "matches" => {
                        return Err(E::custom(format!(
                            "`expect: {word}` needs a text: write `expect: {{ {word}: \"…\" }}`"
                        )));
                    }
                    own => Expect::Own(OwnExpect {
                        word: own.to_string(),
                        text: None,
                    }),
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Expect, A::Error> {
                let Some(word) = map.next_key::<String>()? else {
                    return Err(A::Error::custom(
                        "an empty expectation: write e.g. `expect: legal-move` or `expect: { reply: TEXT }`",
                    ));
                };
                let text: String = map.next_value()?;
                if map.next_key::<String>()?.is_some() {
                    return Err(A::Error::custom(
                        "one expectation per `expect:` step: write each as its own step",
                    ));
                }
                Ok(match word.as_str() {
                    "reply" => Expect::Reply(text),
                    "matches" => Expect::Matches(text),
                    "legal-move" | "silence" | "exit" => {
                        return Err(A::Error::custom(format!(
                            "`expect: {word}` takes no text: write `expect: {word}`"
                        )));
                    }
                    _ => Expect::Own(OwnExpect {
                        word,
                        text: Some(text),
                    }),
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// Written as read: the core expectations as serde writes an enum's unit
/// and newtype variants, a game's own as its word or `{ word: text }`.
impl Serialize for Expect {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Expect::LegalMove => s.serialize_unit_variant("Expect", 0, "legal-move"),
            Expect::Reply(t) => s.serialize_newtype_variant("Expect", 1, "reply", t),
            Expect::Matches(p) => s.serialize_newtype_variant("Expect", 2, "matches", p),
            Expect::Silence => s.serialize_unit_variant("Expect", 3, "silence"),
            Expect::Exit => s.serialize_unit_variant("Expect", 4, "exit"),
            Expect::Own(OwnExpect { word, text: None }) => s.serialize_str(word),
            Expect::Own(OwnExpect {
                word,
                text: Some(t),
            }) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(word, t)?;
                map.end()
            }
        }
    }
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Play {
    /// Generated play until the game ends, then the bot must exit.
    ToEnd,
}

/// A scalar written as a number or a word (`opponent: 3`, `opponent: swap`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token(pub String);

impl<'de> Deserialize<'de> for Token {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Token;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a move (a number or a word)")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Token, E> {
                Ok(Token(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Token, E> {
                Ok(Token(v.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Token, E> {
                Ok(Token(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl schemars::JsonSchema for Token {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Token".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["string", "integer"] })
    }
}

impl Serialize for Token {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.parse::<u64>() {
            Ok(n) => s.serialize_u64(n),
            Err(_) => s.serialize_str(&self.0),
        }
    }
}

/// Where a step (or anything else) stands in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub line: u32,
    pub column: u32,
}

/// A scenario ready to run: validated, with spans resolved.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub game: String,
    pub about: Option<String>,
    /// The rule ids it probes (`rules:`).
    pub rules: Vec<String>,
    pub spec: Option<String>,
    pub options: Options,
    /// Where it came from: a path, `builtin:kalah/x.yaml`, or `generated`.
    pub source: String,
    pub steps: Vec<(Step, Span)>,
    /// How to run it again (generated games): extra words for the command line.
    pub origin: Origin,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    File,
    Builtin,
    Generated { seed: u64, index: usize },
}

/// Where a generated game comes from, as the options that play it again:
/// game `index` (0-based) of a seed is the last of `--games index+1`.
/// Reports show it where a file's `path:line:col` would be.
pub fn generated_source(seed: u64, index: usize) -> String {
    format!("generated: --seed {seed} --games {}", index + 1)
}

/// The file form used to save a failing generated game for replay.
#[derive(Serialize)]
pub struct ScenarioOut<'a> {
    pub name: &'a str,
    pub game: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub about: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub rules: &'a [String],
    pub options: &'a Options,
    pub steps: &'a [Step],
}
