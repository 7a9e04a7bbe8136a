//! The JSON Schema of the scenario format (`protocheck schema`), generated
//! from the types the loader reads: the document and its steps, the core's
//! options, and each game's own options from its options table, so that a
//! scenario naming its game may use only that game's options.

use super::model::OptionsDoc;
use super::model::ScenarioDoc;
use crate::games;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value};

pub use crate::scenario_model::DurationText;

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

/// An expectation: the core ones every game knows, then each game's own
/// (`Game::expectations`), which the loader accepts only in that game's
/// files (`games::check_expect`).
impl JsonSchema for super::model::Expect {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Expect".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let word = |word: &str, about: &str| {
            json_schema!({ "description": about, "type": "string", "const": word }).to_value()
        };
        let with_text = |word: &str, about: &str, format: Option<&str>| {
            let mut text = json_schema!({ "type": "string" });
            if let Some(format) = format {
                text.insert("format".into(), format.into());
            }
            json_schema!({
                "description": about,
                "type": "object",
                "properties": { word: text },
                "additionalProperties": false,
                "required": [word],
            })
            .to_value()
        };
        let mut choices = vec![
            word(
                "legal-move",
                "The due reply, judged by the grammar and the rules in the tracked state.",
            ),
            with_text(
                "reply",
                "The due reply must be exactly this (shown as a diff otherwise).",
                None,
            ),
            with_text(
                "matches",
                "The due reply must match this regular expression.",
                Some("regex"),
            ),
            word("silence", "Nothing may arrive within the silence window."),
            word(
                "exit",
                "The bot exits by itself within the exit grace period.",
            ),
        ];
        for game in games::ALL {
            for own in game.expectations() {
                let about = match own.text {
                    Some(text) => format!("{}'s own: `{}` with {text}.", game.id(), own.word),
                    None => format!("{}'s own: `{}`.", game.id(), own.word),
                };
                choices.push(match own.text {
                    Some(_) => with_text(own.word, &about, None),
                    None => word(own.word, &about),
                });
            }
        }
        json_schema!({ "description": "What the bot must do.", "oneOf": choices })
    }
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
