//! The scenario language: one YAML document per file. Kept small on purpose:
//! `send` scripted messages, `opponent` moves, `expect` replies, `play` to the
//! end. The game gives these words their protocol meaning.

use crate::games::options::GameOptionValues;
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use std::time::Duration;

/// One scenario: a scripted exchange between protocheck (the engine or
/// controller) and a bot. One YAML document per file.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "protocheck scenario")]
pub struct ScenarioDoc {
    /// Unique name; --filter selects by it.
    #[schemars(with = "String", length(min = 1))]
    pub name: Spanned<String>,
    /// The game; may be omitted when --game is given.
    #[schemars(with = "Option<String>")]
    pub game: Option<Spanned<String>>,
    /// One or two sentences for the report: what this scenario checks.
    pub about: Option<String>,
    /// The spec sentence the scenario is about (quoted in reports).
    pub spec: Option<String>,
    /// Settings of this scenario: `timeout`, `silence` and `seed`, and the
    /// game's own options.
    // Checked and split into the core's and the game's in `load`.
    #[serde(default)]
    pub options: Option<super::options::OptionsDoc>,
    #[schemars(with = "Vec<Step>", length(min = 1))]
    pub steps: Vec<Spanned<Step>>,
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
        self.game
            .insert(name.to_string(), crate::games::options::value_of(value));
        self
    }

    /// The game's options, typed (`Err`: they do not fit the game's type).
    pub fn of_game<T: serde::de::DeserializeOwned>(&self) -> Result<T, String> {
        crate::games::options::read(&self.game)
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
    Wait(#[schemars(with = "super::schema::DurationText")] String),
    /// Close the bot's standard input (it reads end-of-file).
    CloseInput,
}

/// What the bot must do.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub enum Expect {
    /// The due reply, judged by the grammar and the rules in the tracked state.
    LegalMove,
    /// The due reply must be exactly this (shown as a diff otherwise).
    Reply(String),
    /// The due reply must match this regular expression.
    Matches(#[schemars(extend("format" = "regex"))] String),
    /// Nothing may arrive within the silence window.
    Silence,
    /// The bot exits by itself within the exit grace period.
    Exit,
    /// The due response is a success (`= ...`) (command-response protocols).
    Success,
    /// The due response is this error message (`? <message>`).
    Error(String),
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
    pub options: &'a Options,
    pub steps: &'a [Step],
}
