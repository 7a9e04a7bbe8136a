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
    pub options: Option<OptionsDoc>,
    #[schemars(with = "Vec<Step>", length(min = 1))]
    pub steps: Vec<Spanned<Step>>,
}

/// `options:` as written: each name and value with where it stands.
#[derive(Debug, Default)]
pub struct OptionsDoc(pub Vec<(Spanned<String>, Spanned<serde_json::Value>)>);

impl<'de> Deserialize<'de> for OptionsDoc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = OptionsDoc;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping of option names to values")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OptionsDoc, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(OptionsDoc(entries))
            }
        }
        d.deserialize_map(Entries)
    }
}
