//! Reporters are pure functions of the results: same results, same text.
//! Nothing here runs anything or knows a game.

pub mod github;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;

use crate::outcome::ScenarioResult;
use serde::Serialize;

/// What the report says about the run as a whole.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
    pub version: String,
    pub game: String,
    pub bot: String,
    /// `--games N --seed S`, when generated games were played.
    pub generated: Option<(usize, u64)>,
    pub strict: bool,
    /// `--partition`: this run is one shard (`hash:2/4`) of `selected`
    /// scenarios.
    pub partition: Option<(String, usize)>,
    /// The checkout the user's scenario paths are relative to on a CI
    /// runner (`$GITHUB_WORKSPACE`), for annotations.
    pub workspace: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Junit,
    /// GitHub Actions workflow commands (annotations on the pull request).
    Github,
    /// One self-contained page: filters, and a step-through of every
    /// failing game with its board drawn at each message.
    Html,
}

/// Render a report in `format`.
pub fn render(
    format: Format,
    info: &RunInfo,
    results: &[ScenarioResult],
    opts: &human::Style,
) -> String {
    match format {
        Format::Human => human::render(info, results, opts),
        Format::Json => json::render(info, results),
        Format::Junit => junit::render(info, results),
        Format::Github => github::render(results, info.workspace.as_deref()),
        Format::Html => html::render(info, results),
    }
}
