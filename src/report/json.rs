//! The JSON report: one document, one object per scenario.

use super::RunInfo;
use crate::outcome::{ScenarioResult, Totals};
use serde::Serialize;

#[derive(Serialize)]
struct Report<'a> {
    protocheck: &'a str,
    game: &'a str,
    bot: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    generated: Option<Generated>,
    strict: bool,
    totals: Totals,
    scenarios: &'a [ScenarioResult],
}

#[derive(Serialize)]
struct Generated {
    games: usize,
    seed: u64,
}

pub fn render(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let report = Report {
        protocheck: &info.version,
        game: &info.game,
        bot: &info.bot,
        generated: info
            .generated
            .map(|(games, seed)| Generated { games, seed }),
        strict: info.strict,
        totals: Totals::of(results),
        scenarios: results,
    };
    let mut text = serde_json::to_string_pretty(&report).expect("report serializes");
    text.push('\n');
    text
}
