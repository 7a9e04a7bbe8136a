//! Grading: a run's results as points, by a policy (`policy.rs`, the
//! `[grading]` table of `protocheck.toml`, or the default: one point per
//! scenario that passed). The score is a pure function of the policy and
//! the results; every report carries it (`report::RunInfo::score`).

pub mod policy;
#[cfg(test)]
mod tests;

use crate::outcome::{ScenarioResult, Status};
use policy::{Group, Policy, WarningWord, Warnings};
use serde::{Deserialize, Serialize};

/// The source reports name when no policy was given.
pub const DEFAULT_SOURCE: &str = "default: 1 point per scenario that passed";

/// A run's score, and what it is made of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub score: f64,
    pub max_score: f64,
    /// Where the policy came from: its file, or `default`.
    pub policy: String,
    /// One per group of the policy, then one per scenario no group takes,
    /// in report order.
    pub tests: Vec<Test>,
    /// The leaderboard the policy names (Gradescope's `leaderboard`);
    /// empty without one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaderboard: Vec<Standing>,
}

/// One figure of the leaderboard, as Gradescope takes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Standing {
    pub name: String,
    pub value: f64,
    /// `desc`: more is better; `asc`: less is better.
    pub order: Order,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    Asc,
    Desc,
}

/// One graded item: a group of scenarios, or a scenario alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Test {
    /// The group's name, or the scenario's.
    pub name: String,
    /// The scenarios it is made of (the scenario itself when alone).
    pub scenarios: Vec<String>,
    pub score: f64,
    pub max_score: f64,
    /// Its details are hidden from students until then (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_until: Option<String>,
    /// Whether its details were still hidden when the run ended (its
    /// `hidden_until` lay ahead): what students may see of it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// Why it did not earn every point, when it did not: the first
    /// scenario that lost points and how.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost: Option<String>,
}

/// The score of `results` under `policy` (from `source`). `counted[i]`
/// false: the i-th result is left out of the score altogether (a scenario
/// outside the game's default run, skipped alike for every bot); an empty
/// `counted` counts them all.
pub fn score(policy: &Policy, source: &str, results: &[ScenarioResult], counted: &[bool]) -> Score {
    let counted = |i: usize| counted.get(i).copied().unwrap_or(true);
    // Each counted scenario's group: the first that takes it.
    let group_of: Vec<Option<usize>> = results
        .iter()
        .map(|r| policy.groups.iter().position(|g| takes(g, r)))
        .collect();
    let mut tests = Vec::new();
    for (gi, group) in policy.groups.iter().enumerate() {
        let members: Vec<&ScenarioResult> = (0..results.len())
            .filter(|&i| counted(i) && group_of[i] == Some(gi))
            .map(|i| &results[i])
            .collect();
        // An empty group (none of its scenarios in this run) adds nothing
        // to the score or its maximum: no bot could earn it.
        let each = if members.is_empty() {
            0.0
        } else {
            group.points / members.len() as f64
        };
        let mut test = Test {
            name: group.name.clone(),
            scenarios: members.iter().map(|r| r.name.clone()).collect(),
            score: 0.0,
            max_score: each * members.len() as f64,
            hidden_until: group.hidden_until.clone(),
            hidden: false,
            lost: members
                .is_empty()
                .then(|| "no scenario of this run is in this group".to_string()),
        };
        for r in members {
            let (earned, lost) = earned(policy, r, false);
            test.score += each * earned;
            if test.lost.is_none() {
                test.lost = lost.map(|why| format!("{}: {why}", r.name));
            }
        }
        tests.push(test);
    }
    for (i, r) in results.iter().enumerate() {
        if !counted(i) || group_of[i].is_some() {
            continue;
        }
        let generated =
            is_generated(r) && (policy.per_clean_game.is_some() || policy.per_game_won.is_some());
        let (max, score, lost) = if generated {
            let clean = policy.per_clean_game.unwrap_or(0.0);
            let won = policy.per_game_won.unwrap_or(0.0);
            let (earned, lost) = earned(policy, r, true);
            let won_clean = won_clean(r);
            let lost = lost.or_else(|| {
                (won > 0.0 && !won_clean).then(|| "not won without a finding".to_string())
            });
            (
                clean + won,
                clean * earned + if won_clean { won } else { 0.0 },
                lost,
            )
        } else {
            let (earned, lost) = earned(policy, r, false);
            (
                policy.points_per_scenario,
                policy.points_per_scenario * earned,
                lost,
            )
        };
        tests.push(Test {
            name: r.name.clone(),
            scenarios: vec![r.name.clone()],
            score,
            max_score: max,
            hidden_until: None,
            hidden: false,
            lost,
        });
    }
    for t in &mut tests {
        t.score = round(t.score);
        t.max_score = round(t.max_score);
    }
    let score = round(tests.iter().map(|t| t.score).sum());
    let counted: Vec<&ScenarioResult> = (0..results.len())
        .filter(|&i| counted(i))
        .map(|i| &results[i])
        .collect();
    Score {
        score,
        max_score: round(tests.iter().map(|t| t.max_score).sum()),
        policy: source.to_string(),
        tests,
        leaderboard: policy
            .leaderboard
            .iter()
            .map(|&s| standing(s, score, &counted))
            .collect(),
    }
}

/// A figure of the leaderboard from the scored results. A game counts as
/// won, or clean, as the policy's `per-game-won`/`per-clean-game` count it.
fn standing(which: policy::Standing, score: f64, results: &[&ScenarioResult]) -> Standing {
    let games = || results.iter().filter(|r| is_generated(r));
    let (name, value, order) = match which {
        policy::Standing::Score => ("Score", score, Order::Desc),
        policy::Standing::GamesWon => (
            "Games won",
            games().filter(|r| won_clean(r)).count() as f64,
            Order::Desc,
        ),
        policy::Standing::CleanGames => (
            "Games played clean",
            games().filter(|r| r.status == Status::Passed).count() as f64,
            Order::Desc,
        ),
        policy::Standing::Warnings => (
            "Warnings",
            results.iter().map(|r| r.warnings()).sum::<usize>() as f64,
            Order::Asc,
        ),
    };
    Standing {
        name: name.to_string(),
        value,
        order,
    }
}

/// A game the bot won without any finding (`per-game-won`).
fn won_clean(r: &ScenarioResult) -> bool {
    r.status == Status::Passed
        && r.violations.is_empty()
        && r.omitted.is_empty()
        && r.ending == Some(crate::games::EndResult::Won)
}

/// Points as people read them: no float noise (0.1 + 0.2 is 0.3).
fn round(points: f64) -> f64 {
    // `+ 0.0`: an empty sum is -0.0, which JSON would show as `-0.0`.
    (points * 10_000.0).round() / 10_000.0 + 0.0
}

/// `7.5`, `10`, `3.3333`.
pub fn show(points: f64) -> String {
    let text = format!("{:.4}", round(points));
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Score {
    /// Mark the tests whose details are hidden at `now` (before their
    /// `hidden_until`). The points are unchanged.
    pub fn hide_until(&mut self, now: std::time::SystemTime) {
        for t in &mut self.tests {
            t.hidden = t
                .hidden_until
                .as_deref()
                .and_then(|due| humantime::parse_rfc3339_weak(due).ok())
                .is_some_and(|due| now < due);
        }
    }

    /// `score: 7.5 / 10`.
    pub fn line(&self) -> String {
        format!("score: {} / {}", show(self.score), show(self.max_score))
    }
}

/// The share (0 to 1) of its points a scenario earns, and why not all.
/// `game`: a generated game judged by the clean-game rule (a win is
/// counted apart).
fn earned(policy: &Policy, r: &ScenarioResult, game: bool) -> (f64, Option<String>) {
    if r.status != Status::Passed {
        let why = match r.status {
            Status::Failed => match r
                .violations
                .iter()
                .find(|v| v.severity == crate::verdict::Severity::Fail)
            {
                Some(v) => format!("failed ({})", v.rule),
                None => "failed".to_string(),
            },
            Status::Error => "error".to_string(),
            Status::Skipped => "not run".to_string(),
            Status::Interrupted => "interrupted".to_string(),
            Status::Passed => unreachable!(),
        };
        let why = if game {
            format!("not played clean: {why}")
        } else {
            why
        };
        return (0.0, Some(why));
    }
    let warnings = r.warnings();
    if warnings == 0 {
        return (1.0, None);
    }
    let plural = if warnings == 1 { "" } else { "s" };
    match policy.warnings {
        Warnings::Named(WarningWord::Ignore) => (1.0, None),
        Warnings::Named(WarningWord::Fail) => (
            0.0,
            Some(format!("{warnings} warning{plural}, counted as a failure")),
        ),
        Warnings::Deduct(f) => (
            (1.0 - f * warnings as f64).max(0.0),
            Some(format!(
                "{warnings} warning{plural}, {} of its points off each",
                show(f)
            )),
        ),
    }
}

fn is_generated(r: &ScenarioResult) -> bool {
    r.source.starts_with("generated")
}

/// Whether `group` takes the scenario: its name matches a glob, or its
/// `rules:` (or, in an older scenario, its `about`: `… Rules: a, b.`) names
/// a matching rule.
fn takes(group: &Group, r: &ScenarioResult) -> bool {
    let matches = |pattern: &str, text: &str| {
        glob::Pattern::new(pattern)
            .map(|p| p.matches(text))
            .unwrap_or(pattern == text)
    };
    if group.scenarios.iter().any(|g| matches(g, &r.name)) {
        return true;
    }
    // The scenario's `rules:`; a scenario written before that field names
    // them at the end of its `about`.
    let mut rules: Vec<&str> = r.rules.iter().map(String::as_str).collect();
    rules.extend(scenario_rules(r.about.as_deref().unwrap_or("")));
    group
        .rules
        .iter()
        .any(|g| rules.iter().any(|rule| matches(g, rule)))
}

/// The rule ids a scenario's `about` ends with: `… Rules: a, b.`.
pub fn scenario_rules(about: &str) -> Vec<&str> {
    let Some((_, list)) = about.rsplit_once("Rules:") else {
        return Vec::new();
    };
    list.split([',', ' ', '\n'])
        .map(|w| w.trim().trim_end_matches('.'))
        .filter(|w| !w.is_empty())
        .collect()
}
