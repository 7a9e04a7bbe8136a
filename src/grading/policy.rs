//! The `[grading]` table of `protocheck.toml`: how a run's results become
//! points. Read once; the score is a pure function of it and the results
//! (`super::score`).

use serde::Deserialize;
use std::path::Path;

/// A grading policy. Every key is optional: an empty `[grading]` table is
/// the default policy (one point per scenario that passed).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Policy {
    /// Points of a scenario that no group takes (default 1).
    #[serde(default = "one")]
    pub points_per_scenario: f64,
    /// How warnings count (default: not at all, as in the run's verdict).
    #[serde(default)]
    pub warnings: Warnings,
    /// Generated games (`--games N`): points for each game played clean
    /// (no failing finding). With neither this nor `per-game-won`, a
    /// generated game is a scenario like the others.
    #[serde(default)]
    pub per_clean_game: Option<f64>,
    /// Generated games: points for each game the bot won without any
    /// finding (no failure, no warning), on top of `per-clean-game`.
    #[serde(default)]
    pub per_game_won: Option<f64>,
    /// Groups of scenarios with their own points, in order: a scenario
    /// belongs to the first group that takes it.
    #[serde(default, rename = "group")]
    pub groups: Vec<Group>,
    /// What Gradescope's leaderboard shows, in order (none by default):
    /// `score`, `games-won` (generated games won without a finding: points
    /// against the built-in opponent), `clean-games` (generated games
    /// played clean), `warnings` (fewest first).
    #[serde(default)]
    pub leaderboard: Vec<Standing>,
}

/// One column of the leaderboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    Score,
    GamesWon,
    CleanGames,
    Warnings,
}

fn one() -> f64 {
    1.0
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            points_per_scenario: 1.0,
            warnings: Warnings::default(),
            per_clean_game: None,
            per_game_won: None,
            groups: Vec::new(),
            leaderboard: Vec::new(),
        }
    }
}

/// How a scenario's warnings change its points: `"ignore"` (default),
/// `"fail"`, or a number, the fraction of the scenario's points taken off
/// per warning (e.g. 0.25), never below 0.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Warnings {
    Named(WarningWord),
    Deduct(f64),
}

impl Default for Warnings {
    fn default() -> Warnings {
        Warnings::Named(WarningWord::Ignore)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningWord {
    /// A warning costs nothing (the run's own verdict; `--strict` already
    /// makes warnings failures).
    Ignore,
    /// A scenario with a warning earns nothing.
    Fail,
}

/// Scenarios that share points.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Group {
    pub name: String,
    /// Globs (`*`, `?`) on scenario names.
    #[serde(default)]
    pub scenarios: Vec<String>,
    /// Rule ids (globs allowed): the scenarios whose `about` ends with
    /// `Rules: …` naming one of them.
    #[serde(default)]
    pub rules: Vec<String>,
    /// The group's points, shared equally among its scenarios in the run.
    pub points: f64,
    /// RFC 3339 (`2026-12-01T23:59:00Z`): the group's tests are hidden
    /// from students until then (Gradescope `after_due_date`; PrairieLearn
    /// and the other reports withhold their details). Its points always
    /// count: the score is the same before and after.
    #[serde(default)]
    pub hidden_until: Option<String>,
}

impl Policy {
    /// The `[grading]` table of the TOML file `path`; `None` when it has
    /// none.
    pub fn from_file(path: &Path) -> Result<Option<Policy>, PolicyError> {
        let text = std::fs::read_to_string(path).map_err(|source| PolicyError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Policy::from_toml(&text).map_err(|e| PolicyError::InFile {
            path: path.to_path_buf(),
            source: Box::new(e),
        })
    }

    pub fn from_toml(text: &str) -> Result<Option<Policy>, PolicyError> {
        #[derive(Deserialize)]
        struct File {
            grading: Option<toml::Value>,
        }
        let file: File = toml::from_str(text).map_err(PolicyError::Toml)?;
        let Some(table) = file.grading else {
            return Ok(None);
        };
        let policy: Policy = table.try_into().map_err(PolicyError::Table)?;
        policy.check()?;
        Ok(Some(policy))
    }

    /// Values no grade can come from are refused at once.
    fn check(&self) -> Result<(), PolicyError> {
        let bad = |what: String, v: f64| {
            (!v.is_finite() || v < 0.0).then_some(PolicyError::NotPoints { what, value: v })
        };
        let mut problems = vec![bad("points-per-scenario".into(), self.points_per_scenario)];
        problems.push(
            self.per_clean_game
                .and_then(|v| bad("per-clean-game".into(), v)),
        );
        problems.push(
            self.per_game_won
                .and_then(|v| bad("per-game-won".into(), v)),
        );
        if let Warnings::Deduct(f) = self.warnings
            && !(0.0..=1.0).contains(&f)
        {
            problems.push(Some(PolicyError::Deduction(f)));
        }
        for g in &self.groups {
            problems.push(bad(format!("group `{}` points", g.name), g.points));
            if g.scenarios.is_empty() && g.rules.is_empty() {
                problems.push(Some(PolicyError::EmptyGroup(g.name.clone())));
            }
            if let Some(due) = &g.hidden_until
                && humantime::parse_rfc3339_weak(due).is_err()
            {
                problems.push(Some(PolicyError::HiddenUntil {
                    group: g.name.clone(),
                    due: due.clone(),
                }));
            }
        }
        match problems.into_iter().flatten().next() {
            Some(p) => Err(p),
            None => Ok(()),
        }
    }
}

/// Why a `[grading]` policy cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// What is wrong inside the file `path`.
    #[error("{}: {source}", path.display())]
    InFile {
        path: std::path::PathBuf,
        #[source]
        source: Box<PolicyError>,
    },
    #[error("{0}")]
    Toml(#[source] toml::de::Error),
    #[error("[grading]: {}", .0.message())]
    Table(#[source] toml::de::Error),
    #[error("[grading] {what} must be a number of points, 0 or more (not {value})")]
    NotPoints { what: String, value: f64 },
    #[error(
        "[grading] warnings: a deduction is a fraction of the scenario's points per warning, 0 to 1 (not {0})"
    )]
    Deduction(f64),
    #[error("[grading] group `{0}` takes no scenario: give `scenarios` (globs) or `rules`")]
    EmptyGroup(String),
    #[error(
        "[grading] group `{group}` hidden-until `{due}` is not a date and time like 2026-12-01T23:59:00Z"
    )]
    HiddenUntil { group: String, due: String },
}
