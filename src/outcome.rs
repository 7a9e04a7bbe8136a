//! What running a scenario produced. Reporters are pure functions of these.

use crate::verdict::{Severity, Violation};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// protocheck → bot (`>`)
    Sent,
    /// bot → protocheck (`<`)
    Received,
    /// Something protocheck observed (exit, timeout, EOF).
    Note,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TranscriptLine {
    pub dir: Direction,
    pub text: String,
    /// Milliseconds since the bot was started.
    pub ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Passed,
    Failed,
    /// The scenario itself is invalid, or protocheck failed internally.
    Error,
    /// Not run: `--fail-fast` after an earlier failure, or a scenario
    /// outside the game's default run (`skip_reason` says which).
    Skipped,
}

#[derive(Clone, Debug, Serialize)]
pub struct ScenarioResult {
    pub name: String,
    pub game: String,
    pub source: String,
    pub about: Option<String>,
    pub status: Status,
    /// For `Error`: what is wrong with the scenario (or with protocheck).
    pub error: Option<String>,
    /// For `Skipped`: why it did not run, and the option that runs it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<String>,
    pub violations: Vec<Violation>,
    /// Findings past the first few of their rule, only counted (a bot that
    /// repeats a mistake a million times gets ten findings and a count).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub omitted: Vec<Omitted>,
    pub transcript: Vec<TranscriptLine>,
    pub stderr_bytes: u64,
    pub stderr_tail: String,
    pub duration_ms: u64,
    /// How long protocheck listened for output the bot might send out of
    /// turn (start-up, silence and pause windows; issue 8: windows end as
    /// soon as the bot is provably idle, so this is what the checks cost).
    #[serde(default)]
    pub listened_ms: u64,
    /// The command that replays this scenario (generated games).
    pub replay: Option<String>,
    /// Where a failing generated game was saved.
    pub saved_to: Option<String>,
}

/// How many more findings of one rule there were than the report keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Omitted {
    pub rule: &'static str,
    pub severity: Severity,
    pub count: u64,
}

impl ScenarioResult {
    pub fn warnings(&self) -> usize {
        self.violations
            .iter()
            .filter(|v| v.severity == Severity::Warn)
            .count()
    }
    pub fn failures(&self) -> usize {
        self.violations
            .iter()
            .filter(|v| v.severity == Severity::Fail)
            .count()
    }
}

/// The totals a run ends with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    pub skipped: usize,
    pub warnings: usize,
}

impl Totals {
    pub fn of(results: &[ScenarioResult]) -> Totals {
        let mut t = Totals::default();
        for r in results {
            match r.status {
                Status::Passed => t.passed += 1,
                Status::Failed => t.failed += 1,
                Status::Error => t.errors += 1,
                Status::Skipped => t.skipped += 1,
            }
            t.warnings += r.warnings();
        }
        t
    }
}
