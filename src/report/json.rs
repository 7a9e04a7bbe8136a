//! The JSON report: one document, one object per scenario. [`Report`] is
//! both what a run writes and what `grade` reads back from each bot's
//! `report.json`: one type, serialised and deserialised, so the writer and
//! the readers cannot drift apart.

use super::RunInfo;
use crate::outcome::{ScenarioResult, Totals};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The JSON report. Written from a run's results (borrowed), read back
/// owned (`Report<'static>`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Report<'a> {
    pub protocheck: String,
    pub game: String,
    pub bot: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<Generated>,
    pub strict: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<Shard>,
    /// What the bots' environment left out of protocheck's, kept or set.
    /// (Reports written before it was recorded lack it.)
    #[serde(default)]
    pub environment: crate::transport::environment::EnvNote,
    /// Which sandbox layers confined the bots. Reports written before the
    /// sandbox was recorded lack it: no layer confined those bots.
    #[serde(default = "super::sandbox_not_recorded")]
    pub sandbox: crate::transport::sandbox::Layers,
    /// The score under the run's grading policy, out of `max_score`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_score: Option<f64>,
    /// What the score is made of: the policy's source and each graded
    /// item (a group of scenarios, or a scenario alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grading: Option<Grading>,
    pub totals: Totals,
    /// Every rule of the game's catalogue and every situation it declares,
    /// with how often each was checked, passed and broken (a situation:
    /// reached). Reports written before coverage was recorded lack it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<crate::coverage::Summary>,
    pub scenarios: Cow<'a, [ScenarioResult]>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Grading {
    pub policy: String,
    pub tests: Vec<crate::grading::Test>,
    /// The policy's leaderboard, when it names one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaderboard: Vec<crate::grading::Standing>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Shard {
    /// As given: `count:K/N` or `hash:K/N`.
    pub shard: String,
    /// Scenarios selected before sharding (all shards together).
    pub of: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Generated {
    pub games: usize,
    pub seed: u64,
}

impl<'a> Report<'a> {
    pub fn of(info: &RunInfo, results: &'a [ScenarioResult]) -> Report<'a> {
        Report {
            protocheck: info.version.clone(),
            game: info.game.clone(),
            bot: info.bot.clone(),
            generated: info
                .generated
                .map(|(games, seed)| Generated { games, seed }),
            strict: info.strict,
            partition: info.partition.as_ref().map(|(shard, of)| Shard {
                shard: shard.clone(),
                of: *of,
            }),
            environment: info.environment.clone(),
            sandbox: info.sandbox.clone(),
            score: info.score.as_ref().map(|s| s.score),
            max_score: info.score.as_ref().map(|s| s.max_score),
            grading: info.score.as_ref().map(|s| Grading {
                policy: s.policy.clone(),
                tests: s.tests.clone(),
                leaderboard: s.leaderboard.clone(),
            }),
            totals: Totals::of(results),
            coverage: info.coverage.clone(),
            scenarios: Cow::Borrowed(results),
        }
    }

    /// What the run said about itself, as the other reporters take it.
    /// (The CI workspace is the run's machine's, not recorded.)
    pub fn info(&self) -> RunInfo {
        RunInfo {
            version: self.protocheck.clone(),
            game: self.game.clone(),
            bot: self.bot.clone(),
            generated: self.generated.map(|g| (g.games, g.seed)),
            strict: self.strict,
            partition: self.partition.as_ref().map(|p| (p.shard.clone(), p.of)),
            workspace: None,
            environment: self.environment.clone(),
            sandbox: self.sandbox.clone(),
            score: match (self.score, self.max_score) {
                (Some(score), Some(max_score)) => Some(crate::grading::Score {
                    score,
                    max_score,
                    policy: self
                        .grading
                        .as_ref()
                        .map(|g| g.policy.clone())
                        .unwrap_or_default(),
                    tests: self
                        .grading
                        .as_ref()
                        .map(|g| g.tests.clone())
                        .unwrap_or_default(),
                    leaderboard: self
                        .grading
                        .as_ref()
                        .map(|g| g.leaderboard.clone())
                        .unwrap_or_default(),
                }),
                _ => None,
            },
            coverage: self.coverage.clone(),
        }
    }
}

/// A JSON report's text read back.
pub fn read(text: &str) -> Result<Report<'static>, JsonReportError> {
    serde_json::from_str(text).map_err(JsonReportError)
}

/// A JSON report that does not read back, as serde says it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct JsonReportError(#[source] serde_json::Error);

pub fn render(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let mut text =
        serde_json::to_string_pretty(&Report::of(info, results)).expect("report serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON of a snapshot file (after its `---` header).
    fn snapshot(name: &str) -> String {
        let path = format!("{}/snapshots/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        text.splitn(3, "---\n").nth(2).unwrap().to_string()
    }

    #[test]
    fn json_reports_round_trip_through_the_typed_report() {
        for name in [
            "kalah-fail-json.snap",
            "kalah-pass-json.snap",
            "kalah-skip-json.snap",
        ] {
            let json = snapshot(name);
            let report = read(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
            let again = render(&report.info(), &report.scenarios);
            assert_eq!(again.trim_end(), json.trim_end(), "{name}");
        }
    }

    #[test]
    fn pictures_are_read_back_as_written() {
        use crate::outcome::{Frame, Picture, Shape};
        let report = read(&snapshot("kalah-fail-json.snap")).unwrap();
        let mut results = report.scenarios.to_vec();
        results[0].frames = vec![Frame {
            picture: Some(Picture {
                width: 100,
                height: 50,
                shapes: vec![Shape::board(100, 50, 8)],
                caption: Some("South to move".into()),
            }),
            findings: vec![0],
        }];
        let back = read(&render(&report.info(), &results)).unwrap();
        assert_eq!(back.scenarios[0].frames, results[0].frames);
    }

    #[test]
    fn a_report_from_before_the_sandbox_says_none_was_recorded() {
        let json = snapshot("kalah-pass-json.snap");
        let start = json
            .find("  \"sandbox\": {")
            .expect("the report has a sandbox");
        let end = start + json[start..].find("  },\n").expect("its end") + 5;
        let old = read(&format!("{}{}", &json[..start], &json[end..])).unwrap();
        assert_eq!(old.sandbox, crate::report::sandbox_not_recorded());
        let text = crate::report::human::render(
            &old.info(),
            &old.scenarios,
            &crate::report::human::Style::default(),
        );
        assert!(
            text.contains("sandbox: none (not recorded: the report predates protocheck's sandbox)")
        );
    }

    #[test]
    fn a_bad_value_is_an_error_not_a_silent_default() {
        let json = snapshot("kalah-fail-json.snap").replacen(
            "\"status\": \"failed\"",
            "\"status\": \"flailed\"",
            1,
        );
        let e = read(&json).unwrap_err();
        assert!(std::error::Error::source(&e).is_some());
        let e = e.to_string();
        assert!(e.contains("flailed"), "{e}");
    }
}
