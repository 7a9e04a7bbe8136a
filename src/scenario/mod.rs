//! Scenario files: loading with located errors (checked against the games),
//! the built-in suites embedded in the binary, and the JSON Schema of the
//! format. The vocabulary they are read into is `crate::scenario_model`,
//! below the games; its names are re-exported here.
pub mod builtin;
pub mod interpret;
pub mod load;
mod load_error;
pub mod model;
pub mod options;
pub mod schema;

pub use load::LoadError;
pub use model::generated_source;
pub use model::{
    Expect, Options, Origin, OwnExpect, Play, Scenario, Span, Step, Strategy, SwapPolicy, Token,
};

/// The committed copy of the generated schema (`scenarios/schema.json`, for
/// editors); a test keeps it equal to [`schema::generate`].
pub const SCHEMA: &str = include_str!("../../scenarios/schema.json");
