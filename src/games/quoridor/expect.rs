//! What a conforming engine must answer to each command, worked out from the
//! true state when the command is sent (QTP §2.3, quoridor.md §7–8).

use super::catalogue as rule;
use super::notation::Command;
use super::rules::{Action, Colour, Illegal};
use crate::verdict::RuleInfo;

/// The answer a conforming engine gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `= <non-empty name>`.
    Name,
    /// `= true` / `= false` (or `? false`).
    Known(bool),
    /// `=` with every QTP command, one per line.
    ListCommands,
    /// `=`, then the engine exits.
    Quit,
    /// `=`; a `?` breaks `rule`.
    Accept(&'static RuleInfo),
    /// `? <text>`; a `=` breaks `rule` (`why` says what makes it illegal).
    Refuse {
        rule: &'static RuleInfo,
        text: &'static str,
        why: String,
    },
    /// `=` or `? unacceptable size`: an even or out-of-range board size.
    SizeOffSpec,
    /// Any `?` (malformed arguments; the text is free).
    AnyFailure(&'static RuleInfo),
    /// `?` expected, but `=` is only a warning under `rule`.
    FailurePreferred(&'static RuleInfo),
    /// `= <legal move>` for this colour, which the engine then plays.
    Genmove(Colour),
    /// `= false` / `= true <colour>`.
    Winner(Option<Colour>),
    /// `=` and a diagram without empty lines.
    ShowBoard,
    /// Any well-framed response (a private extension).
    Anything,
    /// A GTP-style numbered command (`1 name`, §7.6): `? …` or `=1 …`, and
    /// no space is required after a GTP id.
    GtpId,
}

/// The rule a refusal of this kind falls under, with the standard text.
pub fn refusal(reason: Illegal, action: Action) -> (&'static RuleInfo, &'static str) {
    let r = match (action, reason) {
        (Action::Step(_), _) => &rule::PLAYMOVE_REJECTS_ILLEGAL,
        (Action::Place(_), Illegal::WallOutOfRange) => &rule::PLAYWALL_ANCHOR,
        (Action::Place(_), Illegal::WallOverlap | Illegal::WallCrossing) => &rule::PLAYWALL_OVERLAP,
        (Action::Place(_), Illegal::NoWallsLeft) => &rule::PLAYWALL_SUPPLY,
        (Action::Place(_), Illegal::PathBlocked(_)) => &rule::PLAYWALL_PATH,
        (Action::Place(_), _) => &rule::PLAYWALL_ANCHOR,
    };
    (r, super::notation::ERR_ILLEGAL_MOVE)
}

/// The rule a legal action's acceptance falls under.
pub fn acceptance(action: Action) -> &'static RuleInfo {
    match action {
        Action::Step(_) => &rule::PLAYMOVE_ACCEPTS_LEGAL,
        Action::Place(_) => &rule::PLAYWALL_ACCEPTS_LEGAL,
    }
}

/// How a sent line differs from the canonical form: the input-handling rule
/// a wrong answer to it breaks (quoridor.md §8 `quoridor.input.*`).
///
/// A `#` glued to a token (`name#x`) and whitespace before the command name
/// have their own warning ids: the reference engine fails both (decision 19).
pub fn input_feature(raw: &str, canonical: Option<&str>) -> Option<&'static RuleInfo> {
    if raw.contains('\r') {
        return Some(&rule::INPUT_CRLF);
    }
    if let Some(at) = raw.find('#') {
        let glued = raw[..at]
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_whitespace());
        return Some(if glued {
            &rule::INPUT_GLUED_COMMENT
        } else {
            &rule::INPUT_COMMENT
        });
    }
    if raw.starts_with([' ', '\t']) {
        return Some(&rule::INPUT_LEADING_WHITESPACE);
    }
    let collapsed: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if raw.contains('\t') || collapsed != raw {
        return Some(&rule::INPUT_WHITESPACE);
    }
    match canonical {
        Some(c) if c != raw => Some(&rule::INPUT_ARGUMENT_CASE),
        _ => None,
    }
}

/// True when `name` is a QTP command written in the wrong case (`NAME`).
pub fn wrong_case_command(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower != name && super::notation::QTP_COMMANDS.contains(&lower.as_str())
}

/// The commands that need a defined position.
pub fn needs_position(c: &Command) -> bool {
    matches!(
        c,
        Command::PlayMove(..)
            | Command::PlayWall(..)
            | Command::GenMove(_)
            | Command::Undo(_)
            | Command::Winner
    )
}
