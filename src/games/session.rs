//! The traits of a game in progress: [`Session`] (the judging core the
//! controller referees with) and the capabilities a session also carries:
//! [`Scripted`], [`Drawn`], and, for `protocheck match`, [`Relay`].

use super::{Assembly, Judged, Next, Outgoing, ScriptError};
use crate::outcome::EndResult;
use crate::scenario_model::Expect;
use crate::transport::ExitStatus;
use crate::verdict::Violation;
use std::time::Duration;

pub use super::exit::ExitState;

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
    /// Where the game stands for the bot's exit. The game's
    /// [`GameFacts::exit`](super::GameFacts::exit) policy (data) judges an
    /// exit status and words a bot that does not exit from it.
    fn exit_state(&self) -> ExitState;
    /// protocheck closed the bot's input: from now on it may exit.
    fn input_closed(&mut self);
    /// After a failure: what to tell the bot (Kalah: `END`). By default
    /// nothing: protocheck closes the bot's input or kills it. A hook, not
    /// data: the games that override it change their tracked state with it
    /// (Kalah: the game is over and `END` was sent, so that its exit is
    /// judged as after `END`; Evolution: the client is dropped, which its
    /// ending and its unread-output check depend on).
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
    /// `protocheck match`'s capability: how this session relays moves to
    /// and from the other seats. `None` (the default): the game plays no
    /// matches (its `GameFacts::seating` is `None`).
    fn relay(&self) -> Option<&dyn Relay> {
        None
    }
    /// How the game ended for this session's bot, once the game is over by
    /// the rules (`None`: not over, or not known). Part of judging, not of
    /// the relay: a generated game's outcome gives a policy's points per
    /// game won, as well as a match's result.
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

/// `protocheck match`: a seat's session relays the moves of its bot to the
/// other seats' sessions, and takes theirs through [`Session::opponent`].
/// Handed out by [`Session::relay`]; only `matchplay` (through
/// `controller::relay`) asks for it.
pub trait Relay {
    /// The move the bot's last judged reply made, in the notation
    /// [`Session::opponent`] takes (Kalah: a hole or `swap`; QTP: `E2` or
    /// `E2 h`). `None`: that reply made no move.
    fn played(&self) -> Option<String>;
    /// Whether protocheck's next message must wait for the other seat's
    /// move (relayed through `opponent`). Otherwise `opponent("auto")` is
    /// protocheck's own next message (QTP: the `genmove` owed by this
    /// engine, `winner`, `quit`).
    fn awaits_relay(&self) -> bool;
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
