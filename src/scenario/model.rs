//! The scenario language: one YAML document per file. Kept small on purpose:
//! `send` scripted messages, `opponent` moves, `expect` replies, `play` to the
//! end. The game gives these words their protocol meaning.

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

/// A scenario as written in a file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ScenarioDoc {
    pub name: Spanned<String>,
    pub game: Option<Spanned<String>>,
    /// One or two sentences for the report: what this scenario checks.
    pub about: Option<String>,
    /// The spec sentence the scenario is about (quoted in reports).
    pub spec: Option<String>,
    #[serde(default)]
    pub options: Options,
    pub steps: Vec<Spanned<Step>>,
}

/// Per-scenario settings; each game accepts the ones that make sense for it.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// Kalah: holes per side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holes: Option<u32>,
    /// Kalah: initial seeds per hole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<u32>,
    /// Quoridor: board size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_size: Option<u32>,
    /// Quoridor: walls per player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walls: Option<u32>,
    /// Per-reply time limit for this scenario (`2s`, `500ms`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<String>,
    /// How long `expect: silence` listens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silence: Option<String>,
    /// Built-in opponent strategy for `opponent: auto` and `play: to-end`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
    /// Whether the built-in opponent takes the pie-rule swap (Kalah).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swap: Option<SwapPolicy>,
    /// Quoridor: the colour the bot plays in generated play (`black`/`white`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// Seed for the built-in opponent's choices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Multi-player games (Dominion, Evolution): how many players in all,
    /// the bot included; the other seats are built-in players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<u32>,
    /// Multi-player games: the bot's seat in turn order, 1 = plays first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u32>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// A uniformly random legal move.
    Random,
    /// The move that gains most at once (Kalah: store seeds; Quoridor:
    /// shortest path with occasional walls).
    Greedy,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SwapPolicy {
    Never,
    Always,
    Random,
}

/// One step of a scenario.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub enum Step {
    /// Send this message verbatim (the transport adds the line terminator).
    /// It is checked against the rules in the tracked state first.
    Send(String),
    /// protocheck's built-in opponent moves: a move in the game's notation
    /// (Kalah: a hole number or `swap`), or `auto` for the options' strategy.
    Opponent(Token),
    /// What the bot must do next.
    Expect(Expect),
    /// Hand over to generated play.
    Play(Play),
    /// Listen for this long; any output counts as unexpected (`300ms`).
    Wait(String),
    /// Close the bot's standard input (it reads end-of-file).
    CloseInput,
}

/// What the bot must do.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
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
    /// The due response is a success (`= ...`) (command-response protocols).
    Success,
    /// The due response is this error message (`? <message>`).
    Error(String),
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
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
