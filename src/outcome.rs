//! What running a scenario produced. Reporters are pure functions of these.

use crate::verdict::{Severity, Violation};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// protocheck → bot (`>`)
    Sent,
    /// bot → protocheck (`<`)
    Received,
    /// Something protocheck observed (exit, timeout, EOF).
    Note,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TranscriptLine {
    pub dir: Direction,
    pub text: String,
    /// Milliseconds since the bot was started.
    pub ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Passed,
    Failed,
    /// The scenario itself is invalid, or protocheck failed internally.
    Error,
    /// Not run: `--fail-fast` after an earlier failure, a run stopped
    /// early because its first scenarios all failed the same way at
    /// start-up, or a scenario outside the game's default run
    /// (`skip_reason` says which).
    Skipped,
    /// Cut short or never started because protocheck itself was stopped
    /// (SIGINT, SIGTERM, SIGHUP): no verdict on the bot (`skip_reason`
    /// says which signal).
    Interrupted,
}

// How a game ended for one bot (a game's `Ending` carries it; here, with
// the results that report it). No doc comment: it would enter the report's
// JSON Schema.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum EndResult {
    Won,
    Lost,
    Drew,
}

/// Written by the JSON report and read back from it (`grade` reads each
/// bot's report as these): one type both ways, so the two cannot drift.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ScenarioResult {
    pub name: String,
    pub game: String,
    pub source: String,
    pub about: Option<String>,
    /// The rule ids the scenario names (`rules:`), for grading policies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    pub status: Status,
    /// For `Error`: what is wrong with the scenario (or with protocheck).
    pub error: Option<String>,
    /// For `Skipped`: why it did not run, and the option that runs it;
    /// for `Interrupted`: what stopped protocheck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<String>,
    pub violations: Vec<Violation>,
    /// Findings past the first few of their rule, only counted (a bot that
    /// repeats a mistake a million times gets ten findings and a count).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
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
    /// How a generated game ended for the bot, when it was played to its
    /// end (a grading policy may give points per game won).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<EndResult>,
    /// The game drawn after each transcript line (`frames[i]` belongs to
    /// `transcript[i]`), recorded only for a report that draws the game
    /// (`--format html`) and kept only for scenarios that did not pass;
    /// empty otherwise, and then not serialised.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<Frame>,
    /// The rule checks that ran and the game situations reached
    /// (`crate::coverage`); empty for a scenario that did not run.
    #[serde(default, skip_serializing_if = "crate::coverage::Coverage::is_empty")]
    pub coverage: crate::coverage::Coverage,
}

/// What the report draws beside one transcript line.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Frame {
    /// The game after the line was dealt with; `None`: the game draws
    /// nothing here (not set up, or no pictures at all), or the line is a
    /// note the transcript added about lines it folded or left out (the
    /// report then shows the picture before it).
    pub picture: Option<Picture>,
    /// Indices into `violations` of the findings made while this line was
    /// the last one (the failing step of the step-through).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<usize>,
}

/// A game state as a small, neutral drawing: the game's own module says
/// what to draw, the reporter turns it into markup (and escapes the text),
/// so neither the controller nor the reporters know any game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Picture {
    /// The drawing's extent, in its own units (the reporter scales it).
    pub width: u32,
    pub height: u32,
    /// Painted in order: later shapes over earlier ones.
    pub shapes: Vec<Shape>,
    /// One line said under the drawing (whose turn it is, supplies left).
    pub caption: Option<String>,
}

impl Picture {
    /// The words drawn, in painting order (what a reader of the picture
    /// sees; tests of every game's drawing ask it).
    pub fn texts(&self) -> Vec<&str> {
        self.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// Asserts that every text and circle lies on the drawing and every
    /// rectangle but the board itself within `margin` of its edges (a
    /// drawing whose places run over the board's edge is a defect).
    #[cfg(test)]
    pub fn assert_inside(&self, margin: i32) {
        let (width, height) = (self.width as i32, self.height as i32);
        for s in &self.shapes {
            if let Shape::Text { x, y, .. } | Shape::Circle { x, y, .. } = s {
                assert!(*x > 0 && *x < width && *y > 0 && *y < height, "{s:?}");
            }
            if let Shape::Rect {
                x, y, w, h, ink, ..
            } = s
                && *ink != Ink::Board
            {
                assert!(*x >= margin && *y >= margin, "{s:?}");
                assert!(x + *w as i32 <= width - margin, "{s:?} too wide");
                assert!(y + *h as i32 <= height - margin, "{s:?} too low");
            }
        }
    }
}

/// One element of a [`Picture`], in the drawing's units (origin top left).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "shape", rename_all = "lowercase")]
pub enum Shape {
    Rect {
        x: i32,
        y: i32,
        w: u32,
        h: u32,
        /// Corner radius.
        round: u32,
        ink: Ink,
    },
    Circle {
        x: i32,
        y: i32,
        r: u32,
        ink: Ink,
    },
    Line {
        x1: i32,
        y1: i32,
        x2: i32,
        y2: i32,
        /// Stroke width.
        width: u32,
        ink: Ink,
    },
    /// Text centred on (x, y).
    Text {
        x: i32,
        y: i32,
        size: u32,
        text: String,
        ink: Ink,
    },
}

impl Shape {
    /// The board under everything else: the whole `width` × `height`
    /// drawing less a 2-unit margin, with rounded corners.
    pub fn board(width: i32, height: i32, round: u32) -> Shape {
        Shape::Rect {
            x: 2,
            y: 2,
            w: (width - 4).max(0) as u32,
            h: (height - 4).max(0) as u32,
            round,
            ink: Ink::Board,
        }
    }
}

/// The role of a shape; the reporter picks the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Ink {
    /// The board itself.
    Board,
    /// A place on the board (a cell, a pit).
    Place,
    /// A place that matters now (the bot's side, the last move).
    Marked,
    /// A store, a goal: where things are counted.
    Store,
    /// A barrier (a Quoridor wall).
    Wall,
    /// The first player's pieces (Quoridor black, Kalah South).
    First,
    /// The second player's pieces.
    Second,
    /// Counts and numbers on the board.
    Count,
    /// Labels beside the board (coordinates, names).
    Label,
    /// What the bot's reply named (the hole it played, the wall or the
    /// square it chose), legal or not: drawn over the rest, as an outline.
    Named,
}

/// How many more findings of one rule there were than the report keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Omitted {
    #[serde(deserialize_with = "crate::verdict::rule_id")]
    pub rule: crate::verdict::RuleId,
    pub severity: Severity,
    pub count: u64,
}

impl ScenarioResult {
    /// A result with nothing recorded yet: no findings, no transcript.
    pub fn new(name: &str, game: &str, source: &str, status: Status) -> ScenarioResult {
        ScenarioResult {
            name: name.into(),
            game: game.into(),
            source: source.into(),
            about: None,
            rules: Vec::new(),
            status,
            error: None,
            skip_reason: None,
            violations: Vec::new(),
            omitted: Vec::new(),
            transcript: Vec::new(),
            stderr_bytes: 0,
            stderr_tail: String::new(),
            duration_ms: 0,
            listened_ms: 0,
            replay: None,
            saved_to: None,
            ending: None,
            frames: Vec::new(),
            coverage: Default::default(),
        }
    }

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
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    pub skipped: usize,
    /// Only in a run stopped by a signal (and then in the JSON totals).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub interrupted: usize,
    pub warnings: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
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
                Status::Interrupted => t.interrupted += 1,
            }
            t.warnings += r.warnings();
        }
        t
    }
}

/// Here rather than in `coverage`, which sits below the results it is
/// kept in.
impl crate::coverage::Coverage {
    /// The counts of a whole run.
    pub fn of<'a>(
        results: impl IntoIterator<Item = &'a ScenarioResult>,
    ) -> crate::coverage::Coverage {
        let mut all = crate::coverage::Coverage::default();
        for r in results {
            all.add(&r.coverage);
        }
        all
    }
}
