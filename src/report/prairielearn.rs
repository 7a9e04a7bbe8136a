//! PrairieLearn's external grader results (`results.json`, as its
//! "External Grading" page describes it): gradable, the score from 0 to 1,
//! a message and output, and one test per graded item. A group hidden
//! until its date keeps its points but not its details.

use super::RunInfo;
use super::feedback;
use crate::outcome::ScenarioResult;
use serde::Serialize;

#[derive(Serialize)]
struct Results {
    gradable: bool,
    /// 0 to 1.
    score: f64,
    message: String,
    output: String,
    tests: Vec<Test>,
}

#[derive(Serialize)]
struct Test {
    name: String,
    description: String,
    points: f64,
    max_points: f64,
    message: String,
    output: String,
}

/// Not gradable: the submission is not charged an attempt.
#[derive(Serialize)]
struct Ungradable {
    gradable: bool,
    message: String,
    format_errors: Vec<String>,
}

pub fn render(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let score = feedback::run_score(info, results);
    let tests = score
        .tests
        .iter()
        .filter(|t| !t.scenarios.is_empty())
        .map(|t| {
            let hidden = |text: String| match (&t.hidden_until, t.hidden) {
                (Some(date), true) => format!("Hidden until {date}."),
                _ => text,
            };
            Test {
                name: t.name.clone(),
                description: match t.scenarios.as_slice() {
                    [one] if *one == t.name => format!("The scenario {one}."),
                    many => format!("{} scenarios: {}.", many.len(), many.join(", ")),
                },
                points: t.score,
                max_points: t.max_score,
                message: hidden(match &t.lost {
                    None => "Passed.".to_string(),
                    Some(why) => feedback::without_paths(why, &info.bot),
                }),
                output: hidden(feedback::test_output(t, results, info)),
            }
        })
        .collect();
    let report = Results {
        gradable: true,
        score: if score.max_score > 0.0 {
            (score.score / score.max_score).clamp(0.0, 1.0)
        } else {
            0.0
        },
        message: score.line(),
        output: feedback::summary(info, results),
        tests,
    };
    let mut text = serde_json::to_string_pretty(&report).expect("results serialize");
    text.push('\n');
    text
}

/// The results of a run whose bot could not be started: not gradable, so
/// the student keeps the attempt, with the reason as a format error.
pub fn unstartable(message: &str) -> String {
    let report = Ungradable {
        gradable: false,
        message: "The bot could not be started.".into(),
        format_errors: vec![message.to_string()],
    };
    serde_json::to_string_pretty(&report).expect("results serialize") + "\n"
}
