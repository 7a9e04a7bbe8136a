//! The JSON Schemas of the JSON reports, generated from the types written
//! and read back, as the scenario schema is from the scenario types
//! (`scenario::schema`): a single run's report (`docs/report.schema.json`,
//! [`super::json::Report`], which `grade` reads back) here, and with the
//! same [`of`] a match's and a tournament's (`matchplay::schema`, which
//! sits above this module). Each describes what this protocheck writes: a
//! key written always is required, one written only when it has something
//! to say is not, and no other key is allowed.

use super::json::Report;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema, json_schema};

/// Where the single run's schema is committed, from the repository's root.
pub const PATH: &str = "docs/report.schema.json";
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

/// The schema of `T`, `about` (its id, title and description) on top.
pub fn of<T: JsonSchema>(about: Schema) -> String {
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
pub(crate) mod tests {
    /// `PROTOCHECK_WRITE_SCHEMA=1 cargo test --lib schema` after
    /// changing a type of a report.
    pub(crate) fn committed_is(path: &str, generated: String) {
        let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("PROTOCHECK_WRITE_SCHEMA").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{path} is not the schema the report's types give: regenerate it with \
             PROTOCHECK_WRITE_SCHEMA=1 cargo test --lib schema"
        );
    }

    #[test]
    fn the_committed_schema_is_the_generated_one() {
        committed_is(super::PATH, super::generate());
    }
}
