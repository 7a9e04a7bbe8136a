//! Findings about a bot's behaviour. A bot's misbehaviour is *data* (a
//! [`Violation`]), never an `Err`: `Err` is reserved for protocheck's own
//! trouble (unreadable scenario, bot program missing), which maps to exit 2.

use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;

/// How much a finding weighs. `--strict` promotes every `Warn` to `Fail`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
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
            timing: None,
        }
    }
}

/// Where in a scenario file something happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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
        // Line 0: no file behind it (a generated game); its source says
        // how to play it again.
        if self.line == 0 {
            return write!(f, "{}", self.file);
        }
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A single finding about the bot under test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Violation {
    #[serde(deserialize_with = "rule_id")]
    pub rule: RuleId,
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
    /// For a reply that came too late or never: how long protocheck waited,
    /// by the wall clock and by the bot's own time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<ReplyTiming>,
}

/// How long a reply took (or how long protocheck waited for it), by the wall
/// clock and as the bot would have needed on an idle machine: the wall time
/// less the time its busiest task was ready to run but waited for a CPU
/// (`transport::cpu_wait`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReplyTiming {
    pub wall_ms: u64,
    /// `None` where the bot's own time cannot be measured (not Linux, a
    /// client protocheck did not start): the wall time decides.
    pub own_ms: Option<u64>,
    /// The limit the reply was held to (`--timeout`, or the start-up one).
    pub limit_ms: u64,
    pub decided_by: TimeFigure,
}

/// Which figure decided that a reply was late.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TimeFigure {
    /// The bot's own time reached the limit.
    OwnTime,
    /// The wall time reached the limit, the bot's own time being unknown.
    WallTime,
    /// The wall time reached the backstop (a multiple of the limit) before
    /// the bot's own time reached the limit: the machine was too busy to
    /// tell the bot's pace.
    Backstop,
}

impl ReplyTiming {
    /// Both figures in words, for messages: "12.3 s wall, 10.0 s of the
    /// bot's own time (the machine was busy)".
    pub fn describe(&self) -> String {
        let wall = seconds(self.wall_ms);
        match (self.decided_by, self.own_ms) {
            (TimeFigure::Backstop, Some(own)) => format!(
                "{wall} wall but only {} of the bot's own time: the machine was so busy that protocheck stopped waiting at its backstop ({}x the limit); run fewer bots at once (--jobs)",
                seconds(own),
                self.wall_ms / self.limit_ms.max(1)
            ),
            (_, Some(own)) if self.wall_ms.saturating_sub(own) >= 100.max(self.wall_ms / 20) => {
                format!(
                    "{wall} wall, {} of the bot's own time (the machine was busy: the rest it waited for a CPU)",
                    seconds(own)
                )
            }
            (_, Some(own)) => format!("{wall} wall, {} of the bot's own time", seconds(own)),
            (_, None) => format!("{wall} wall (the bot's own time cannot be measured here)"),
        }
    }
}

/// Milliseconds as people read them: "850 ms", "14.2 s".
pub fn seconds(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
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
    pub fn with_timing(mut self, timing: ReplyTiming) -> Self {
        self.timing = Some(timing);
        self
    }
}

/// A rule's stable id. (An alias: serde would borrow a field written
/// `&'static str` from the input, and a report read back outlives its text.)
pub type RuleId = &'static str;

/// A rule id read back from a report. Ids are `&'static` in results (the
/// catalogues are static); an id read from a file is kept once per
/// process (a grading run meets a few dozen distinct ids).
pub fn rule_id<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let id = String::deserialize(d)?;
    Ok(intern(&id))
}

fn intern(id: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static IDS: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut ids = IDS.lock().unwrap_or_else(|e| e.into_inner());
    let ids = ids.get_or_insert_with(HashSet::new);
    if let Some(known) = ids.get(id) {
        return known;
    }
    let leaked: &'static str = Box::leak(id.to_string().into_boxed_str());
    ids.insert(leaked);
    leaked
}
