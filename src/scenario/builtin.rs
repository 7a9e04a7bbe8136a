//! The built-in suites (`scenarios/<game>/*.yaml`), embedded at build time.

use super::load::{LoadError, parse};
use super::model::{Origin, Scenario};

include!(concat!(env!("OUT_DIR"), "/builtin_scenarios.rs"));

/// Every embedded scenario file as (path under `scenarios/`, text).
pub fn files() -> &'static [(&'static str, &'static str)] {
    BUILTIN
}

/// The built-in suite of one game, parsed.
pub fn suite(game: &str) -> Result<Vec<Scenario>, LoadError> {
    let prefix = format!("{game}/");
    BUILTIN
        .iter()
        .filter(|(path, _)| path.starts_with(&prefix))
        .map(|(path, text)| {
            let mut s = parse(text, &format!("builtin:{path}"), Some(game))?;
            s.origin = Origin::Builtin;
            Ok(s)
        })
        .collect()
}
