//! The file form of a scenario, as the loader reads it; the vocabulary it
//! is read into is `crate::scenario_model`, below the games.

pub use crate::scenario_model::*;
use serde::Deserialize;
use serde_saphyr::Spanned;

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
    /// The rule ids this scenario probes (its game's, or the shared `io.*`
    /// and `scenario.*` ones): `protocheck explain` lists the scenarios that
    /// name a rule, and a grading policy's `rules` select by them.
    #[serde(default)]
    pub rules: Vec<String>,
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
