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
    #[serde(skip_serializing_if = "Option::is_none")]
    partition: Option<Shard<'a>>,
    /// What the bots' environment left out of protocheck's, kept or set.
    environment: &'a crate::transport::environment::EnvNote,
    /// Which sandbox layers confined the bots.
    sandbox: &'a crate::transport::sandbox::Layers,
    totals: Totals,
    scenarios: &'a [ScenarioResult],
}

#[derive(Serialize)]
struct Shard<'a> {
    /// As given: `count:K/N` or `hash:K/N`.
    shard: &'a str,
    /// Scenarios selected before sharding (all shards together).
    of: usize,
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
        partition: info
            .partition
            .as_ref()
            .map(|(shard, of)| Shard { shard, of: *of }),
        environment: &info.environment,
        sandbox: &info.sandbox,
        totals: Totals::of(results),
        scenarios: results,
    };
    let mut text = serde_json::to_string_pretty(&report).expect("report serializes");
    text.push('\n');
    text
}
