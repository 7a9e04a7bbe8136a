//! One folder per game. A game tells the controller, in every state, what to
//! send, whether a reply is due and how to judge it; the controller and the
//! reporters know nothing game-specific.

#[cfg(test)]
pub(crate) mod catalogue_check;
/// What the two Dominion protocols share (not a game of its own).
pub mod dominion;
pub mod exit;
mod expectation;
pub mod options;
mod script_error;
mod seating;
mod session;
#[cfg(test)]
mod session_tests;
mod setup_error;
pub mod shrinkable;
#[cfg(test)]
pub(crate) mod table_tests;

pub use exit::{ExitPolicy, ExitState};
pub use expectation::{ExpectationError, OwnExpectation, Unmet, check_expect, own_expectation};
pub use seating::{SeatedBot, Seating};
pub use session::{Drawn, Ending, Relay, Scripted, Session};
pub use setup_error::{OptionError, RulesError, SetupError};
pub use shrinkable::Shrinkable;

pub use crate::outcome::EndResult;
use crate::scenario_model::{Options, Scenario, Step};
pub use crate::transport::Transport;
use crate::transport::framing::Framer;
use crate::verdict::{RuleInfo, Violation};
use std::time::Duration;

/// A message protocheck sends, and how many replies the bot owes for it
/// (Kalah: 0 or 1; QTP: one per non-empty command line, so a pipelined
/// write owes several and a blank line none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// Without the final terminator: the transport appends LF.
    pub text: String,
    pub replies: usize,
}

impl Outgoing {
    pub fn silent(text: impl Into<String>) -> Outgoing {
        Outgoing {
            text: text.into(),
            replies: 0,
        }
    }
    pub fn asking(text: impl Into<String>) -> Outgoing {
        Outgoing {
            text: text.into(),
            replies: 1,
        }
    }
}

/// Where a reply stands after another piece of it (one framed message,
/// usually a line) has arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assembly {
    /// The reply goes on: wait for more (until the reply deadline).
    More,
    /// Complete, unless more arrives within this grace (a response whose
    /// terminating blank line may still come).
    CompleteUnlessMore(Duration),
    /// Complete with this piece.
    Complete,
    /// The reply was already complete before this piece, which starts the
    /// next reply (or is output nobody asked for).
    StartsNext,
}

pub use script_error::ScriptError;

/// The verdict on one reply, and what protocheck sends next because of it
/// (Kalah: the CHANGE reporting the bot's own move).
#[derive(Debug, Default)]
pub struct Judged {
    pub violations: Vec<Violation>,
    pub follow_ups: Vec<Outgoing>,
    /// The piece judged was not the reply that was due (QTP: a tolerated
    /// answer to a whitespace-only line); keep waiting for it.
    pub still_due: bool,
    /// The rules this judgement checked and found kept (a broken one is a
    /// violation instead): the coverage report counts them. Rules a failed
    /// check made moot are not listed.
    pub passed: Vec<crate::verdict::RuleId>,
    /// Whole areas of rules this judgement found kept, each a
    /// `Catalogue::area` slice, counted like [`Self::passed`] but as one
    /// set (cheaper than listing their rules one by one on every reply).
    pub passed_areas: Vec<&'static [crate::verdict::RuleId]>,
}

impl Judged {
    /// What follows a reply a scenario assumes (`Scripted::assume`): its
    /// follow-up messages, or a scenario error when the assumed reply would
    /// itself fail (`text` as the scenario wrote it).
    pub fn assumed(self, text: &str) -> Result<Vec<Outgoing>, ScriptError> {
        match self
            .violations
            .iter()
            .find(|v| v.severity == crate::verdict::Severity::Fail)
        {
            Some(v) => Err(format!(
                "the expected reply `{text}` would itself break {}: {}",
                v.rule, v.message
            )
            .into()),
            None => Ok(self.follow_ups),
        }
    }
}

/// Who acts next in generated play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A reply from the bot is due.
    Bot,
    /// protocheck's built-in side acts.
    Opponent,
    /// The game is over; the bot should exit.
    Finished,
}

/// Per-game time defaults (overridable on the command line).
#[derive(Clone, Copy, Debug)]
pub struct Defaults {
    pub reply_timeout: Duration,
    pub startup_timeout: Duration,
    /// How long the bot may take to exit once the game is over.
    pub exit_grace: Duration,
    /// How long `expect: silence` listens (ended early by default once the
    /// bot is provably idle; see `controller::pace`).
    pub silence: Duration,
    /// The full pause before protocheck's moves in generated play where
    /// out-of-turn output is most likely, to catch it (0: no pauses). Other
    /// pauses follow the bot's pace; all end early once the bot is idle.
    pub pause: Duration,
    /// What the game's reference engine allows a reply, in words, for the
    /// finding of a bot that was too slow ("the reference engine has no
    /// per-reply limit, …").
    pub reference_time_limit: &'static str,
}

impl Defaults {
    /// The times most games use; a game states what differs
    /// (`Defaults { reply_timeout: …, ..Defaults::STANDARD }`) and always its
    /// reference's own limit.
    pub const STANDARD: Defaults = Defaults {
        reply_timeout: Duration::from_secs(10),
        startup_timeout: Duration::from_secs(10),
        exit_grace: Duration::from_secs(2),
        silence: Duration::from_millis(50),
        pause: Duration::from_millis(50),
        reference_time_limit: "",
    };
}

/// The wire conventions of a game, as the controller needs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wire {
    pub transport: Transport,
    /// Appended to every message protocheck sends.
    pub message_end: &'static [u8],
    /// Output that arrives while no reply is due is kept and taken as the
    /// next reply (a stream read like the Evolution reference reads it), as
    /// well as reported through `Session::unexpected`.
    pub early_output_is_next_reply: bool,
}

impl Wire {
    /// Line protocols over the bot's stdio (Kalah, QTP, Dominion).
    pub const LINES: Wire = Wire {
        transport: Transport::Stdio,
        message_end: b"\n",
        early_output_is_next_reply: false,
    };
}

/// What a game is, as data: everything about it that does not depend on
/// the state of a game in progress.
pub struct GameFacts {
    /// The id the command line and scenario files name the game by.
    pub id: &'static str,
    /// The game's rules: its own rows plus the shared ones
    /// (`shared_rules::Catalogue`).
    pub catalogue: &'static crate::shared_rules::Catalogue,
    /// The rule for a message over the length cap (`io.line-too-long`, as
    /// this game weighs it; Evolution's names a JSON message).
    pub line_too_long: &'static RuleInfo,
    /// Time limits, unless the command line or a scenario says otherwise.
    pub defaults: Defaults,
    /// The game's name in sentences (`Kalah`, `Quoridor`).
    pub title: &'static str,
    /// How messages travel.
    pub wire: Wire,
    /// Arguments every bot of this game is started with (after the user's).
    pub bot_args: &'static [&'static str],
    /// A virtual-memory limit checked after each reply, with its rule.
    pub memory_limit: Option<(u64, &'static RuleInfo)>,
    /// Whether the game ends for the bot by protocheck closing its input
    /// rather than by a message (Dominion v1 has no game-over message): the
    /// controller then closes it once the game is over or has failed.
    pub ends_by_closing_input: bool,
    /// Whether a failure of this rule ends the game ([`every_failure_ends`]
    /// for most games). A game whose protocol prescribes a recovery (the
    /// dominion-text server consumes a bad reply and plays on, §6.2) keeps
    /// playing after the failures it recovers from; the verdict still fails.
    pub failure_ends_game: fn(&str) -> bool,
    /// The game's own options (beyond `timeout`, `silence` and `seed`).
    pub options: &'static dyn options::OptionTable,
    /// The game's `explain.txt` (`protocheck explain`; format in
    /// `explain::data`).
    pub explain: &'static str,
    /// How the bot's exit is judged: its status, and a bot that does not
    /// exit (with the session's [`ExitState`]).
    pub exit: ExitPolicy,
    /// How `protocheck match` seats real bots at one table (`None`: the
    /// game plays no matches).
    pub seating: Option<Seating>,
}

/// [`GameFacts::failure_ends_game`] of a game without recovery.
pub fn every_failure_ends(rule: &str) -> bool {
    let _ = rule;
    true
}

/// A game protocol.
pub trait Game: Sync {
    /// The static facts of this game: its id, rules, time defaults, wire,
    /// bot arguments, limits, how a game ends, its options.
    fn facts(&self) -> &'static GameFacts;
    fn framer(&self, cap: usize) -> Box<dyn Framer>;
    fn id(&self) -> &'static str {
        self.facts().id
    }
    /// The situations this game declares worth reaching (its
    /// `coverage.rs`); the coverage report counts each. None by default.
    fn situations(&self) -> &'static [&'static crate::coverage::Situation] {
        &[]
    }
    /// Every rule this game checks (for docs, `--list-rules`, tests).
    fn catalogue(&self) -> &'static [&'static RuleInfo] {
        self.facts().catalogue.all()
    }
    /// The rule for a message over the length cap (`io.line-too-long`, as
    /// this game weighs it). Other transport events are judged by the session.
    fn line_too_long(&self) -> &'static RuleInfo {
        self.facts().line_too_long
    }
    fn defaults(&self) -> Defaults {
        self.facts().defaults
    }
    /// Start tracking a fresh game with these (validated) options.
    fn session(&self, options: &Options) -> Result<Box<dyn Session>, SetupError>;
    /// `count` whole generated games, reproducible from `seed`.
    fn generate(&self, count: usize, seed: u64, options: &Options) -> Vec<Scenario>;
    /// Why a built-in or generated scenario with these options (command-line
    /// values already filled in) is left out of the default run, naming the
    /// option that runs it; `None`: it belongs to the default run. Kalah:
    /// boards other than the Kalah(7,7) every real match uses.
    fn outside_default_run(&self, options: &Options) -> Option<String> {
        let _ = options;
        None
    }
    /// Whether these command-line game options ask for the scenarios outside
    /// the default run (as `--all-sizes` does), e.g. `--holes 6`.
    fn asks_beyond_default_run(&self, cli: &Options) -> bool {
        let _ = cli;
        false
    }
    /// The expectations this game adds to the core ones every game knows
    /// (QTP: `success`, `error`). A scenario may give the game only these:
    /// [`check_expect`] refuses any other word, the same way for every game.
    fn expectations(&self) -> &'static [OwnExpectation] {
        &[]
    }
    /// The log this game's reference engine writes, which `record
    /// --from-transcript` turns into a scenario (Kalah: ManKalah.jar's);
    /// `None`: only protocheck's own transcripts are read.
    fn engine_log(&self) -> Option<&'static dyn EngineLog> {
        None
    }
    /// How `--shrink` shortens a failing generated game of this game
    /// (`crate::shrink`); `None`: the game does not shrink.
    fn shrinker(&self) -> Option<&'static dyn Shrinkable> {
        None
    }
}

/// Every game declares its rules and situations to the coverage report.
impl<G: Game + ?Sized> crate::coverage::Declared for G {
    fn declared_rules(&self) -> &'static [&'static RuleInfo] {
        self.facts().catalogue.all()
    }
    fn declared_situations(&self) -> &'static [&'static crate::coverage::Situation] {
        self.situations()
    }
}

/// Scenario steps, each with a comment for the file (what the bot replied,
/// for an `expect:` step).
pub type CommentedSteps = Vec<(Step, Option<String>)>;

/// A reference engine's own log of a game, read by `record
/// --from-transcript`: the game knows its format, the recorder does not.
pub trait EngineLog: Sync {
    /// What the log is, for messages: "ManKalah.jar log".
    fn name(&self) -> &'static str;
    /// Whether `text` is such a log.
    fn looks_like(&self, text: &str) -> bool;
    /// The scenario's steps (each with a comment for the file) with the bot
    /// as `player`, and a remark when the log goes on after a failing move
    /// of the bot (a run stops there).
    fn steps(
        &self,
        text: &str,
        file: &str,
        player: u8,
        options: &Options,
    ) -> Result<(CommentedSteps, Option<String>), EngineLogError>;
}

/// Why an engine log makes no scenario: each game's log has its own error
/// type (Kalah: `kalah::mankalah_log::ManKalahError`), kept whole here so
/// that its source chain survives.
pub type EngineLogError = Box<dyn std::error::Error + Send + Sync>;

/// Every game protocheck knows, by id.
pub fn by_id(id: &str) -> Option<&'static dyn Game> {
    ALL.iter().copied().find(|g| g.id() == id)
}

/// Declares each game's folder and puts its [`Game`] in [`ALL`], so that a
/// new game is its folder plus one line in the list below.
macro_rules! games {
    ($($folder:ident::$game:ident),* $(,)?) => {
        $(pub mod $folder;)*
        /// Every game protocheck knows, in the order help texts list them.
        pub static ALL: &[&dyn Game] = &[$(&$folder::$game),*];
    };
}

games! {
    kalah::KALAH,
    quoridor::QUORIDOR,
    dominion_sexp::DOMINION_SEXP,
    evolution::EVOLUTION,
    dominion_text::DOMINION_TEXT,
}

/// The ids of all games, for help texts and suggestions.
pub fn ids() -> Vec<&'static str> {
    ALL.iter().map(|g| g.id()).collect()
}
