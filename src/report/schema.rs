//! The JSON Schemas of the JSON reports, generated from the types written
//! and read back, as the scenario schema is from the scenario types
//! (`scenario::schema`): a single run's report (`docs/report.schema.json`,
//! [`super::json::Report`], which `grade` reads back), a match's
//! (`docs/match.schema.json`, [`crate::matchplay::MatchReport`]) and a
//! tournament's `standings.json` (`docs/tournament.schema.json`,
//! [`crate::matchplay::TournamentReport`]). Each describes what this
//! protocheck writes: a key written always is required, one written only
//! when it has something to say is not, and no other key is allowed.

use super::json::Report;
use crate::matchplay::{MatchReport, TournamentReport};
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema, json_schema};

/// Where the single run's schema is committed, from the repository's root.
pub const PATH: &str = "docs/report.schema.json";
/// Where a match's schema is committed.
pub const MATCH_PATH: &str = "docs/match.schema.json";
/// Where a tournament's schema is committed.
pub const TOURNAMENT_PATH: &str = "docs/tournament.schema.json";

/// Every object lists all its keys: a key the types do not describe is an
/// error, so a report cannot carry more than its schema says.
fn closed(schema: &mut Schema) {
    if schema.get("properties").is_some() && schema.get("additionalProperties").is_none() {
        schema.insert("additionalProperties".into(), false.into());
    }
}

/// The single run's schema, as committed (ending in a newline).
pub fn generate() -> String {
    of::<Report<'static>>(json_schema!({
        "$id": "https://protocheck.invalid/report.schema.json",
        "title": "protocheck JSON report",
        "description": "What `protocheck --report json` (or `--format json`) writes, and `grade` reads back from each bot's report.json.",
    }))
}

/// A match's schema, as committed.
pub fn generate_match() -> String {
    of::<MatchReport>(json_schema!({
        "$id": "https://protocheck.invalid/match.schema.json",
        "title": "protocheck match report",
        "description": "What `protocheck match --report json` (or `--format json`, `--out FILE`) writes, and each match of a tournament (`matches/NN-A-vs-B.json`).",
    }))
}

/// A tournament's schema, as committed.
pub fn generate_tournament() -> String {
    of::<TournamentReport>(json_schema!({
        "$id": "https://protocheck.invalid/tournament.schema.json",
        "title": "protocheck tournament standings",
        "description": "What `protocheck tournament` writes as standings.json (and prints with `--report json`).",
    }))
}

/// The schema of `T`, `about` (its id, title and description) on top.
fn of<T: JsonSchema>(about: Schema) -> String {
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(RecursiveTransform(closed))
        .into_generator();
    let mut root = generator.root_schema_for::<T>();
    for (key, value) in about.as_object().into_iter().flatten() {
        root.insert(key.clone(), value.clone());
    }
    let mut text = serde_json::to_string_pretty(&root).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    /// `PROTOCHECK_WRITE_SCHEMA=1 cargo test --lib report::schema` after
    /// changing a type of the report.
    fn committed_is(path: &str, generated: String) {
        let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("PROTOCHECK_WRITE_SCHEMA").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{path} is not the schema the report's types give: regenerate it with \
             PROTOCHECK_WRITE_SCHEMA=1 cargo test --lib report::schema"
        );
    }

    #[test]
    fn the_committed_schema_is_the_generated_one() {
        committed_is(super::PATH, super::generate());
    }

    #[test]
    fn the_committed_match_schema_is_the_generated_one() {
        committed_is(super::MATCH_PATH, super::generate_match());
    }

    #[test]
    fn the_committed_tournament_schema_is_the_generated_one() {
        committed_is(super::TOURNAMENT_PATH, super::generate_tournament());
    }
}
