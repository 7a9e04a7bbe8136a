//! One folder per game. A game tells the controller, in every state, what to
//! send, whether a reply is due and how to judge it; the controller and the
//! reporters know nothing game-specific.

#[cfg(test)]
pub(crate) mod catalogue_check;
/// What the two Dominion protocols share (not a game of its own).
pub mod dominion;
pub mod options;
mod script_error;
mod seating;
#[cfg(test)]
mod session_tests;
pub mod shrinkable;
#[cfg(test)]
pub(crate) mod table_tests;

pub use seating::{SeatedBot, Seating};
pub use shrinkable::Shrinkable;

pub use crate::outcome::EndResult;
use crate::scenario_model::{Expect, Options, Scenario, Step};
use crate::transport::ExitStatus;
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
    fn session(&self, options: &Options) -> Result<Box<dyn Session>, String>;
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
    ) -> Result<(CommentedSteps, Option<String>), String>;
}

/// An expectation a game adds to the core ones (`legal-move`, `reply`,
/// `matches`, `silence`, `exit`); its session gives it its meaning in
/// `Session::judge`.
pub struct OwnExpectation {
    pub word: &'static str,
    /// What its text is (`error`: "the error message"); `None`: it takes none.
    pub text: Option<&'static str>,
    /// Whether a reply, as the game reads it, meets it: `protocheck record`
    /// checks an expectation typed after a reply against that reply. The
    /// error says how the reply differs.
    pub holds: fn(text: Option<&str>, reply: &str) -> Result<(), String>,
}

/// The one check of a game's own expectation, wherever a scenario comes
/// from (a file, a built-in suite, the lint, `record`'s prompt): a word the
/// game does not list is refused with the words it knows, and a text must be
/// given exactly where the word takes one. Core expectations always pass.
pub fn check_expect(game: &dyn Game, expect: &Expect) -> Result<(), String> {
    own_expectation(game, expect).map(|_| ())
}

/// The game's entry for an own expectation (`None` for a core one), or why
/// the game cannot be given it.
pub fn own_expectation(
    game: &dyn Game,
    expect: &Expect,
) -> Result<Option<&'static OwnExpectation>, String> {
    let Expect::Own(own) = expect else {
        return Ok(None);
    };
    let own_words = game.expectations().iter().map(|e| e.word);
    let Some(known) = game.expectations().iter().find(|e| e.word == own.word) else {
        let words: Vec<&str> = Expect::CORE_WORDS
            .iter()
            .copied()
            .chain(own_words)
            .collect();
        let mut message = format!(
            "unknown expectation `{}`: {} knows {}",
            own.word,
            game.id(),
            words
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if let Some(near) = crate::suggest::nearest(&own.word, &words) {
            message.push_str(&format!(" (did you mean `{near}`?)"));
        }
        return Err(message);
    };
    match (known.text, &own.text) {
        (Some(what), None) => Err(format!(
            "`expect: {}` needs {what}: write `expect: {{ {}: \"…\" }}`",
            own.word, own.word
        )),
        (None, Some(_)) => Err(format!(
            "`expect: {}` takes no text: write `expect: {}`",
            own.word, own.word
        )),
        _ => Ok(Some(known)),
    }
}

/// One game in progress against one bot, as the controller referees it:
/// what protocheck sends and what that makes due, how a reply, stray output,
/// a silence, a crash and an exit are judged. Ten methods every game writes;
/// the rest are hooks with the common behaviour as default. What the other
/// tools ask of a tracked game is in the capabilities it also carries:
/// [`Scripted`] (lint and record carry steps out without a bot) and
/// [`Drawn`] (findings, `record`'s `board`, the HTML report's pictures).
pub trait Session: Scripted + Drawn + Send {
    /// A scripted message is about to be sent: check it against the rules
    /// in the tracked state and apply it.
    fn send(&mut self, text: &str) -> Result<Outgoing, ScriptError>;
    /// Whether this scripted message is sent at once, even while a reply is
    /// due (Kalah: `END`, the abort the reference sends when the opponent
    /// has failed). Otherwise protocheck waits for the due reply first.
    fn interrupts(&self, text: &str) -> bool {
        let _ = text;
        false
    }
    /// protocheck's own side moves: a move in the game's notation or `auto`.
    fn opponent(
        &mut self,
        choice: &str,
        rng: &mut fastrand::Rng,
    ) -> Result<Vec<Outgoing>, ScriptError>;
    /// Who acts next, for generated play.
    fn next(&self) -> Next;
    /// Whether out-of-turn output is most likely right now (Kalah: after the
    /// first `…;OPP` for the bot's own move, after an extra turn, SWAP,
    /// `START;North`, END), so the pause before protocheck's next move gets
    /// the full window even for a fast bot.
    fn silence_matters(&self) -> bool {
        true
    }
    /// A piece of the due reply arrived; `so_far` holds the earlier pieces.
    /// Line protocols are complete after one line (the default).
    fn reply_part(&mut self, so_far: &[u8], piece: &[u8]) -> Assembly {
        let _ = (so_far, piece);
        Assembly::Complete
    }
    /// The reply about to be judged took `wall` by the wall clock and `own`
    /// of the bot's own time (the wall time less what it waited for a CPU;
    /// `None` where that cannot be measured), and it is the session's first
    /// reply when `first` (it includes the bot's start-up, which
    /// `--startup-timeout` covers). Told just before [`Session::judge`], so
    /// that a rule that judges time can give both figures, as `io.timeout`
    /// does.
    fn reply_took(&mut self, wall: Duration, own: Option<Duration>, first: bool) {
        let _ = (wall, own, first);
    }
    /// Judge one due reply (raw bytes with terminators) against the rules
    /// and the step's expectation; `waited` is the reply time (the bot's own
    /// time where it can be measured, else the wall time). A game's own
    /// expectations (`Expect::Own`) reach only a game that knows them: the
    /// scenario loader and the lint refuse the others (`check_expect`).
    fn judge(
        &mut self,
        reply: &[u8],
        expect: &Expect,
        waited: Duration,
    ) -> Result<Judged, ScriptError>;
    /// The reply as the game reads it, which scripted `expect: {reply}` and
    /// `{matches}` are compared with: by default the raw text without its
    /// final line ends.
    fn reply_as_read(&self, reply: &[u8]) -> String {
        crate::shown::message_text(reply)
    }
    /// Output that arrived while no reply was due (`None`: harmless, like
    /// a blank line between QTP responses).
    fn unexpected(&mut self, bytes: &[u8]) -> Option<Violation>;
    /// Connection-level news from a TCP transport (the bot never
    /// connected, or opened a second connection): the verdict, if any.
    /// Only a game whose `wire()` is TCP hears of any.
    fn connection(&mut self, event: &crate::transport::ConnectionEvent) -> Option<Violation> {
        let _ = event;
        None
    }
    /// No complete reply within `limit`, worded with the game's most
    /// specific diagnosis of the silence (the bot waits for something
    /// else). The controller files it as `io.timeout` where the transcript
    /// shows an answer was under way: the bot proved busy, or the reply
    /// came late (`controller::attribution`).
    fn timed_out(&self, limit: Duration) -> Violation;
    /// The reply that timed out arrived after all (`reply`, its first
    /// message), as protocheck ended the session: the finding that names
    /// the real cause, where the game worded `timed_out` otherwise, with its
    /// own message (`timed_out.message` names the late reply's cause). A
    /// robustness scenario: a legal play means the bot did answer the
    /// probe's question, so the timeout is its own failure, not the probe's
    /// finding; anything else is the probe's finding at its severity.
    /// `None`: the controller's rule applies (a reply that came late is
    /// `io.timeout`, `controller::attribution`).
    fn late_reply(&self, timed_out: &Violation, reply: &[u8]) -> Option<Violation> {
        let _ = (timed_out, reply);
        None
    }
    /// The bot's output ended or it exited: a violation unless the game
    /// allows it at this point. `partial` is text left without terminator.
    fn closed(&self, exit: Option<ExitStatus>, partial: Option<&[u8]>) -> Option<Violation>;
    /// The bot exited after the game was over (or after its input closed).
    /// By default any exit status is accepted (Dominion and Evolution judge
    /// none); Kalah and QTP judge it.
    fn exited_after_end(&self, status: ExitStatus) -> Vec<Violation> {
        let _ = status;
        Vec::new()
    }
    /// The bot is still running `grace` after it should have exited
    /// ([`no_exit_after_close`] words the common case).
    fn no_exit(&self, grace: Duration) -> Violation;
    /// protocheck closed the bot's input: from now on it may exit.
    fn input_closed(&mut self);
    /// After a failure: what to tell the bot (Kalah: `END`). By default
    /// nothing: protocheck closes the bot's input or kills it.
    fn abort(&mut self) -> Vec<Outgoing> {
        Vec::new()
    }
    /// True once no more replies will ever be due (exit is expected).
    fn is_over(&self) -> bool;
    /// Whole-session checks at the end: stderr volume (all bytes counted)
    /// and content (the kept tail). By default none.
    fn finish(&mut self, stderr_bytes: u64, stderr_tail: &str) -> Vec<Violation> {
        let _ = (stderr_bytes, stderr_tail);
        Vec::new()
    }
    /// `protocheck match`: the move the bot's last judged reply made, in
    /// the notation [`Session::opponent`] takes (Kalah: a hole or `swap`;
    /// QTP: `E2` or `E2 h`), so it can be relayed to the other seat's
    /// session. `None`: that reply made no move (or the game has no relay).
    fn played(&self) -> Option<String> {
        None
    }
    /// `protocheck match`: whether protocheck's next message must wait for
    /// the other seat's move (relayed through `opponent`). Otherwise
    /// `opponent("auto")` is protocheck's own next message (QTP: the
    /// `genmove` owed by this engine, `winner`, `quit`).
    fn awaits_relay(&self) -> bool {
        self.next() == Next::Opponent
    }
    /// `protocheck match`: how the game ended for this session's bot, once
    /// the game is over by the rules. `None`: not over, or not known.
    fn ending(&self) -> Option<Ending> {
        None
    }
    /// The situations of the game's `Game::situations` this session has
    /// reached so far, counted (the coverage report). None by default.
    fn reached(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
    /// Generated play (`--games`): what the run reached before this game.
    /// protocheck's own `auto` choices then prefer the legal ones that reach
    /// a situation neither the run nor this game has reached yet, ranked by
    /// the game's own foresight in its `coverage.rs` (`coverage::Aims`),
    /// and otherwise make the usual choice. Ignored by default.
    fn aim(&mut self, aims: crate::coverage::Aims) {
        let _ = aims;
    }
    /// The rule output now, with no reply due, would break, where the game
    /// names one (Kalah: a move after an `…;OPP` for the bot's own move):
    /// a listening window the bot kept quiet is a check of it that held
    /// (the coverage report). None by default.
    fn quiet_rule(&self) -> Option<crate::verdict::RuleId> {
        None
    }
}

/// How a game ended for one bot, as its session tracked it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Ending {
    pub result: EndResult,
    /// The bot's side at the end (Kalah: `South`/`North` after any swap;
    /// QTP: `black`/`white`).
    pub side: String,
    /// The score as the game counts it, by side (Kalah: each side's
    /// store; QTP: each colour's walls left; Dominion: each seat's victory
    /// points, below 0 with curses), and what it counts.
    pub score: Vec<(String, i32)>,
    pub score_counts: &'static str,
    /// The final position in the game's own notation (Kalah: the counts of
    /// a CHANGE's state field).
    pub position: String,
}

/// What the tools that carry a scenario out without a bot ask of a tracked
/// game: the lint's dry run (`suite::lint`), and the steps a run writes down
/// to replay it (`protocheck record`, saved generated games).
pub trait Scripted {
    /// Lint only: the bot's reply to the due message is `pinned` (an exact
    /// `expect: {reply}`) or unknown. Applies it like a reply would be.
    fn assume(&mut self, pinned: Option<&str>) -> Result<Vec<Outgoing>, ScriptError>;
    /// Whether the tracked state is fully known (false after an unpinned bot
    /// move during lint).
    fn state_known(&self) -> bool {
        true
    }
    /// How protocheck's last own move is written in a saved scenario so
    /// that it replays exactly (Kalah: `opponent: <hole>`; QTP: `send:` of
    /// the command line that was sent). `None` (the default): as it was
    /// scripted.
    fn last_opponent_step(&self) -> Option<crate::scenario_model::Step> {
        None
    }
    /// What may be scripted next in the tracked state, each written as the
    /// step a user types (`opponent: 3`, `send: START;South`), for
    /// `protocheck record`'s prompt. Empty: the game cannot list them.
    fn legal_choices(&self) -> Vec<String> {
        Vec::new()
    }
    /// The moves protocheck's own side may make now in the tracked game,
    /// each as the text its `opponent:` or `send:` step takes, for the
    /// shrinker (`crate::shrink`). Empty: none (not its turn, the game is
    /// over, or the game cannot list them).
    fn own_moves(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The tracked state drawn for humans: beside each finding, at `record`'s
/// `board` command, and in the HTML report's step-through.
pub trait Drawn {
    /// The state as text (`None`: nothing known to draw).
    fn board(&self) -> Option<String>;
    /// The state as a picture for the HTML report's step-through (asked
    /// for after every transcript line, and only when that report is
    /// written). `None`: this game draws no picture (yet); the report then
    /// shows the transcript alone.
    fn picture(&self) -> Option<crate::outcome::Picture> {
        None
    }
}

/// `io.no-exit` as a game without an end-of-game message words it: the bot
/// outlived the grace after protocheck closed its input, or after a scripted
/// `expect: exit` while its input was still open (said only as the
/// transcript shows it).
pub fn no_exit_after_close(
    rule: &'static RuleInfo,
    grace: Duration,
    input_closed: bool,
) -> Violation {
    let grace = humantime::format_duration(grace);
    rule.violation(if input_closed {
        format!("the bot was still running {grace} after protocheck closed its input")
    } else {
        format!("the bot was still running {grace} where the scenario expects it to exit (its input is still open)")
    })
}

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
