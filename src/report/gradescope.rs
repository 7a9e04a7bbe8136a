//! Gradescope's autograder results (`results.json`, as its "Autograder
//! Specifications" describe it): the score, the time, the run's summary
//! and one test per graded item, each with its feedback in Markdown, its
//! visibility from the grading policy and its rule ids as tags.

use super::RunInfo;
use super::feedback;
use crate::outcome::ScenarioResult;
use serde::Serialize;

#[derive(Serialize)]
struct Results {
    score: f64,
    /// Seconds spent in the scenarios.
    execution_time: u64,
    output: String,
    output_format: &'static str,
    test_output_format: &'static str,
    tests: Vec<Test>,
    /// The policy's leaderboard, when it names one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    leaderboard: Vec<crate::grading::Standing>,
}

#[derive(Serialize)]
struct Test {
    name: String,
    score: f64,
    max_score: f64,
    /// `passed` or `failed`.
    status: &'static str,
    output: String,
    output_format: &'static str,
    tags: Vec<String>,
    /// `visible`, or `after_due_date` for a group hidden until its date.
    visibility: &'static str,
}

pub fn render(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let score = feedback::run_score(info, results);
    let tests = score
        .tests
        .iter()
        // An empty group has nothing to show or to earn.
        .filter(|t| !t.scenarios.is_empty())
        .map(|t| {
            let members = feedback::members(t, results);
            let failed = t.score < t.max_score
                || members
                    .iter()
                    .any(|r| r.status != crate::outcome::Status::Passed);
            Test {
                name: t.name.clone(),
                score: t.score,
                max_score: t.max_score,
                status: if failed { "failed" } else { "passed" },
                output: feedback::test_output(t, results, info),
                output_format: "md",
                tags: feedback::rules(&members),
                visibility: if t.hidden_until.is_some() {
                    "after_due_date"
                } else {
                    "visible"
                },
            }
        })
        .collect();
    let report = Results {
        score: score.score,
        execution_time: results.iter().map(|r| r.duration_ms).sum::<u64>() / 1000,
        output: feedback::summary(info, results),
        output_format: "md",
        test_output_format: "md",
        tests,
        leaderboard: score.leaderboard.clone(),
    };
    let mut text = serde_json::to_string_pretty(&report).expect("results serialize");
    text.push('\n');
    text
}

/// The results of a run whose bot could not be started: no test ran, the
/// score is 0 and the output says why (Gradescope has no "not gradable").
pub fn unstartable(message: &str) -> String {
    let report = Results {
        score: 0.0,
        execution_time: 0,
        output: format!("**The bot could not be started**: {message}\n\nNo test ran."),
        output_format: "md",
        test_output_format: "md",
        tests: Vec::new(),
        leaderboard: Vec::new(),
    };
    serde_json::to_string_pretty(&report).expect("results serialize") + "\n"
}
