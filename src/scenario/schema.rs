//! The JSON Schema of the scenario format (`protocheck schema`), generated
//! from the types the loader reads: the document and its steps, the core's
//! options, and each game's own options from its options table, so that a
//! scenario naming its game may use only that game's options.

use super::model::ScenarioDoc;
use super::options::OptionsDoc;
use crate::games;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value};

/// A duration as a scenario writes it (`2s`, `500ms`, `1m 30s`).
pub struct DurationText;

impl JsonSchema for DurationText {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "duration".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": r"^\s*[0-9]+(\.[0-9]+)?\s*(ns|us|ms|s|sec|secs|m|min|mins|h)(\s+[0-9]+\s*(ns|us|ms|s|m|h))*\s*$"
        })
    }
}

/// The options every game takes, as a file writes them.
#[derive(JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)] // Only its schema is used: `Options` is read in `options`.
struct CoreOptions {
    /// Per-reply time limit for this scenario (`2s`, `500ms`).
    timeout: Option<DurationText>,
    /// How long `expect: silence` listens.
    silence: Option<DurationText>,
    /// Seed for the built-in opponent's choices.
    seed: Option<u64>,
}

/// The name of a game's options in `$defs`.
fn options_def(game: &str) -> String {
    format!("options-{game}")
}

impl JsonSchema for OptionsDoc {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "options".into()
    }

    /// Any one game's options; the document narrows it to its `game:`.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let core = CoreOptions::json_schema(generator);
        let mut choices = Vec::new();
        for game in games::ALL {
            let own = game.facts().options.object_schema(generator);
            let mut properties = properties_of(&core);
            properties.extend(properties_of(&own));
            let schema = json_schema!({
                "description": format!("The options of {}.", game.id()),
                "type": "object",
                "additionalProperties": false,
                "properties": properties,
            });
            let name = options_def(game.id());
            generator
                .definitions_mut()
                .insert(name.clone(), schema.to_value());
            choices.push(json_schema!({ "$ref": format!("#/$defs/{name}") }).to_value());
        }
        json_schema!({ "anyOf": choices })
    }
}

fn properties_of(schema: &Schema) -> Map<String, Value> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// The schema as `protocheck schema` prints it (and `scenarios/schema.json`
/// holds it), ending in a newline.
pub fn generate() -> String {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut root = generator.root_schema_for::<ScenarioDoc>();
    let ids: Vec<&str> = games::ids();
    if let Some(game) = root
        .get_mut("properties")
        .and_then(|p| p.get_mut("game"))
        .and_then(Value::as_object_mut)
    {
        game.remove("type");
        game.insert("enum".into(), Value::from(ids.clone()));
    }
    // A file that names its game takes that game's options only.
    let narrowed: Vec<Value> = ids
        .iter()
        .map(|id| {
            json_schema!({
                "if": { "required": ["game"], "properties": { "game": { "const": id } } },
                "then": { "properties": { "options": { "$ref": format!("#/$defs/{}", options_def(id)) } } }
            })
            .to_value()
        })
        .collect();
    root.insert("allOf".into(), Value::from(narrowed));
    root.insert(
        "$id".into(),
        Value::from("https://protocheck.invalid/scenario.schema.json"),
    );
    let mut text = serde_json::to_string_pretty(&root).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_committed_schema_is_the_generated_one() {
        // `cargo run -- schema > scenarios/schema.json` after changing a type.
        assert_eq!(super::generate(), super::super::SCHEMA);
    }
}
