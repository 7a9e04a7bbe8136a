//! A seat at the table: one bot's connection ([`Inbox`]), where the bot is
//! in its life ([`Lifecycle`], [`ExitSeen`]) and its time ([`Timing`]). A run
//! holds a list of seats, so one run can referee more than one bot (a match
//! between two bots, a table of several); a single-bot run has one seat.

use super::inbox::Inbox;
use super::timing::BotClock;
use crate::transport::ExitStatus;
use std::fmt;
use std::time::{Duration, Instant};

/// Which seat: an index into the run's seats, shown 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SeatId(pub(super) usize);

impl fmt::Display for SeatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0 + 1)
    }
}

pub(super) struct Seat {
    pub(super) inbox: Inbox,
    pub(super) life: Lifecycle,
    pub(super) exit: ExitSeen,
    pub(super) time: Timing,
    /// The game's memory limit was reported for this bot (once).
    pub(super) memory_reported: bool,
    /// A table where each bot has its own session (`protocheck match`):
    /// this seat's, parked here while protocheck deals with another seat
    /// (the run's `session` is always the one of the seat it deals with).
    /// `None` at a table that shares one session, and for the seat at hand.
    pub(super) parked: Option<Box<dyn crate::games::Session>>,
    /// The command that started this bot: its folders tell a refusal of
    /// the sandbox from a file's own permissions (`refusal`).
    pub(super) command: crate::transport::BotCommand,
    /// Connections to this bot's port that were not the bot's (a port scan
    /// makes thousands): only the first few are noted in the transcript.
    pub(super) strangers: u32,
}

impl Seat {
    pub(super) fn new(inbox: Inbox, time: Timing, command: &crate::transport::BotCommand) -> Seat {
        Seat {
            inbox,
            life: Lifecycle::Running,
            exit: ExitSeen::NotSeen,
            time,
            memory_reported: false,
            parked: None,
            command: command.clone(),
            strangers: 0,
        }
    }
}

/// Whether protocheck still talks to the bot, and if not, why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lifecycle {
    /// Playing: protocheck writes to it and reads from it.
    Running,
    /// The game is over (or failed) and protocheck closed the bot's input
    /// (`close_input_at_end`); it is expected to leave.
    InputClosedAtEnd,
    /// The bot went away mid-game (exit, end of output, never connected)
    /// and that has been dealt with; `input_closed_at_end` keeps whether
    /// protocheck had closed its input first.
    Gone { input_closed_at_end: bool },
    /// The bot crossed an output bound: protocheck stopped listening and
    /// ends the scenario (a stopped bot is gone too).
    Stopped { input_closed_at_end: bool },
}

impl Lifecycle {
    pub(super) fn is_gone(self) -> bool {
        matches!(self, Lifecycle::Gone { .. } | Lifecycle::Stopped { .. })
    }

    pub(super) fn is_stopped(self) -> bool {
        matches!(self, Lifecycle::Stopped { .. })
    }

    pub(super) fn input_closed_at_end(self) -> bool {
        match self {
            Lifecycle::Running => false,
            Lifecycle::InputClosedAtEnd => true,
            Lifecycle::Gone {
                input_closed_at_end,
            }
            | Lifecycle::Stopped {
                input_closed_at_end,
            } => input_closed_at_end,
        }
    }

    /// The bot went away (a stopped bot stays stopped).
    pub(super) fn went_away(self) -> Lifecycle {
        match self {
            Lifecycle::Stopped { .. } => self,
            _ => Lifecycle::Gone {
                input_closed_at_end: self.input_closed_at_end(),
            },
        }
    }

    pub(super) fn stopped(self) -> Lifecycle {
        Lifecycle::Stopped {
            input_closed_at_end: self.input_closed_at_end(),
        }
    }
}

/// What protocheck has seen of the bot's exit. Apart from [`Lifecycle`]:
/// a bot that exits once the game is over is not gone mid-game, and a bot
/// gone at end-of-output may not have shown its exit status yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ExitSeen {
    NotSeen,
    Seen(ExitStatus),
    /// The exit after the game's end was judged (`exited_after_end`).
    Judged(ExitStatus),
}

impl ExitSeen {
    pub(super) fn status(self) -> Option<ExitStatus> {
        match self {
            ExitSeen::NotSeen => None,
            ExitSeen::Seen(s) | ExitSeen::Judged(s) => Some(s),
        }
    }

    /// The exit status arrived (a judged exit stays judged).
    pub(super) fn seen(self, status: ExitStatus) -> ExitSeen {
        match self {
            ExitSeen::Judged(_) => ExitSeen::Judged(status),
            _ => ExitSeen::Seen(status),
        }
    }

    pub(super) fn judged(self) -> bool {
        matches!(self, ExitSeen::Judged(_))
    }
}

/// A seat's time: its limits and windows (from the game's defaults, the
/// command line and the scenario), its pace so far, and what is known of a
/// reply that came too late.
pub(super) struct Timing {
    pub(super) timeout: Duration,
    pub(super) startup_timeout: Duration,
    pub(super) exit_grace: Duration,
    pub(super) silence: Duration,
    pub(super) pause: Duration,
    /// The user fixed the listening windows (`--silence` or `silence:`).
    pub(super) explicit_silence: bool,
    /// The slowest reply so far, for the pace window.
    pub(super) slowest_reply: Duration,
    /// Time spent in listening windows (see `pace`).
    pub(super) listened: Duration,
    /// When a reply due from the start (the bot speaks first) is due.
    pub(super) first_due: Instant,
    /// The violation that reported the last timeout, if any.
    pub(super) timed_out_at: Option<usize>,
    /// What is known of why the last timed-out reply did not come, to name
    /// the true cause if it arrives while protocheck ends the session.
    pub(super) late: Option<LateReply>,
    /// A timed-out reply that arrived while protocheck ended the session,
    /// whose cause waits on whether the bot's exit follows it at once.
    pub(super) late_arrival: Option<LateArrival>,
    /// When protocheck ended the bot's session (sent the game's end, or
    /// closed its input), and how, in the words of "protocheck …".
    pub(super) ended: Option<(Instant, String)>,
    /// A timed-out reply arrived at the end: the bot's output is buffered.
    pub(super) flushed_late: bool,
    /// A look that found the bot idle while protocheck dealt with another
    /// seat (`protocheck match`): the first of the two looks that prove it
    /// idle in its next listening window (`pace::IdleWatch::seed`).
    pub(super) idle_seed: Option<IdleSeed>,
}

/// One look that found a bot idle, and when.
#[derive(Clone, Copy, Debug)]
pub(super) struct IdleSeed {
    pub(super) at: std::time::Instant,
    pub(super) cpu: u64,
    pub(super) schedule: Option<crate::transport::idle::Schedule>,
}

impl Timing {
    /// The same limits and windows for another seat, with nothing seen yet.
    pub(super) fn fresh(&self, first_due: Instant) -> Timing {
        Timing {
            timeout: self.timeout,
            startup_timeout: self.startup_timeout,
            exit_grace: self.exit_grace,
            silence: self.silence,
            pause: self.pause,
            explicit_silence: self.explicit_silence,
            slowest_reply: Duration::ZERO,
            listened: Duration::ZERO,
            first_due,
            timed_out_at: None,
            late: None,
            late_arrival: None,
            ended: None,
            flushed_late: false,
            idle_seed: None,
        }
    }
}

/// Why a reply that timed out had not come, as far as protocheck could see.
pub(crate) enum LateCause {
    /// Proved blocked reading its input with the reply due: if the reply
    /// comes out later, it sat in an unflushed buffer.
    Blocked,
    /// Proved not blocked (computing, sleeping, waiting on something else).
    Busy { computing: bool },
    /// Neither could be told (a JVM, another OS): the bot's exit decides.
    Unknown,
}

pub(super) struct LateReply {
    pub(super) cause: LateCause,
    pub(super) due: Instant,
    pub(super) limit: Duration,
    pub(super) clock: BotClock,
    /// The clock's wait for a CPU when protocheck ended the session, so
    /// the time from the end to the reply is the bot's own time too.
    pub(super) wait_at_end: Option<Duration>,
}

/// A late reply that arrived with no proof of its cause yet.
pub(super) struct LateArrival {
    pub(super) index: usize,
    /// Its first message, as read.
    pub(super) bytes: Vec<u8>,
    pub(super) at: Instant,
}

impl std::ops::Index<SeatId> for Vec<Seat> {
    type Output = Seat;
    fn index(&self, id: SeatId) -> &Seat {
        &self[id.0]
    }
}

impl std::ops::IndexMut<SeatId> for Vec<Seat> {
    fn index_mut(&mut self, id: SeatId) -> &mut Seat {
        &mut self[id.0]
    }
}
