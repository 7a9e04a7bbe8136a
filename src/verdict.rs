//! Findings about a bot's behaviour. A bot's misbehaviour is *data* (a
//! [`Violation`]), never an `Err`: `Err` is reserved for protocheck's own
//! trouble (unreadable scenario, bot program missing), which maps to exit 2.

use serde::Serialize;
use std::borrow::Cow;

/// How much a finding weighs. `--strict` promotes every `Warn` to `Fail`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warn,
    Fail,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warn => "warn",
            Severity::Fail => "fail",
        }
    }
}

/// One entry of a game's check catalogue: a stable id, its default severity
/// and the spec sentence it enforces, so every report can quote the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleInfo {
    /// Stable, dotted, lowercase: `<game>.<area>.<what>` or a shared `io.*` id.
    pub id: &'static str,
    pub severity: Severity,
    /// The requirement, in the words of the rules digest.
    pub spec: &'static str,
}

impl RuleInfo {
    /// A finding of this rule, with the default severity.
    pub fn violation(&'static self, message: impl Into<String>) -> Violation {
        Violation {
            rule: self.id,
            severity: self.severity,
            spec: Cow::Borrowed(self.spec),
            message: message.into(),
            expected: None,
            actual: None,
            step: None,
            board: None,
        }
    }
}

/// Where in a scenario file something happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepRef {
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// 0-based index of the step in the scenario, when the finding belongs to a
    /// scripted step (generated play has no step of its own).
    pub index: Option<usize>,
}

impl std::fmt::Display for StepRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A single finding about the bot under test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub rule: &'static str,
    pub severity: Severity,
    pub spec: Cow<'static, str>,
    /// What happened, in one sentence, with the specifics.
    pub message: String,
    /// What a conforming bot would have sent, where that is known.
    pub expected: Option<String>,
    /// What the bot actually sent (lossy UTF-8), where there was something.
    pub actual: Option<String>,
    pub step: Option<StepRef>,
    /// The game state drawn for humans at the moment of the finding.
    pub board: Option<String>,
}

impl Violation {
    pub fn with_expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }
    pub fn with_actual(mut self, actual: impl Into<String>) -> Self {
        self.actual = Some(actual.into());
        self
    }
}
