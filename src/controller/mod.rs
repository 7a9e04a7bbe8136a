//! The controller runs one scenario against one fresh bot process: it walks
//! the steps, lets the game decide what each message means, waits for due
//! replies with deadlines, watches for output nobody asked for, and always
//! ends by killing the bot's process group (`BotConnection` does it on drop,
//! so panics and early returns are covered too). A run keeps its bots in
//! seats (`seat.rs`), so it can hold more than one connection: an ordinary
//! run seats one bot, a match seats one per side.

mod attribution;
pub mod bounds;
mod events;
mod finish;
mod inbox;
mod late;
mod ledger;
mod refusal;

mod pace;
mod relay;
mod reply;
mod seat;
#[cfg(test)]
mod seat_tests;
mod steps;
mod stepwise;
mod timing;

pub use crate::scenario::interpret::expect_word;
pub use relay::{MatchGame, SeatPlan, play_match};
pub use stepwise::{Live, Stepwise};

use crate::games::{Game, Session, Transport};
use crate::outcome::{ScenarioResult, Status};
use crate::scenario::{Scenario, Step};
use crate::transport::{BotCommand, BotConnection, Limits, SpawnError};
use inbox::Inbox;
use ledger::Ledger;
use seat::{Seat, SeatId, Timing};
use std::time::{Duration, Instant};

/// Settings that apply to every scenario of a run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub bot: BotCommand,
    pub limits: Limits,
    pub timeout: Option<Duration>,
    pub startup_timeout: Option<Duration>,
    pub exit_grace: Option<Duration>,
    pub silence: Option<Duration>,
    pub strict: bool,
    /// `--max-output`: bytes the bot may write to stdout in one scenario.
    pub max_output: u64,
    /// Games over TCP: `--port`, `--no-spawn`.
    pub tcp: TcpConfig,
    /// Record the game's picture beside every transcript line
    /// (`ScenarioResult::frames`): only for a report that draws the game
    /// (`--format html`), so other runs pay nothing for it.
    pub pictures: bool,
    /// The run's stop (see `pool::StopToken`): the suite starts nothing
    /// after it, and a TCP accept loop waits for no client.
    pub stop: crate::pool::StopToken,
}

/// Settings of games whose bot connects over TCP.
#[derive(Clone, Debug, Default)]
pub struct TcpConfig {
    /// `--port`: 0 lets the system choose a free port for each scenario.
    pub port: u16,
    /// `--no-spawn`: start no process; wait for a client the user started.
    pub no_spawn: bool,
}

/// How long a TCP bot may take from its start to its connection, unless
/// `--startup-timeout` says otherwise (rules digest §8, `io.no-connect`).
const CONNECT_DEFAULT: Duration = Duration::from_secs(30);
/// A write to a TCP bot that blocks this long (it never reads) fails.
const TCP_WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// A finished scenario, plus the steps that replay it exactly.
pub struct ScenarioRun {
    pub result: ScenarioResult,
    pub replay_steps: Vec<Step>,
    /// The rule of the first failure when the bot failed before it got
    /// going (no connection, a crash or silence before its first reply, a
    /// bad sign-up): the suite stops early when its first scenarios all
    /// fail so, the same way.
    pub startup_failure: Option<&'static str>,
}

/// The rules for a scripted `expect: {reply}` / `{matches}` that did not hold
/// (shared by every game's catalogue).
pub use crate::shared_rules::{EXPECT_MATCHES, EXPECT_REPLY};

/// Bounds on one assembled reply (a multi-line QTP response that never ends
/// would otherwise grow until the reply deadline): QTP's line-count cap, and
/// a byte cap that keeps protocheck's memory small.
const MAX_REPLY_PIECES: usize = 4096;
const MAX_REPLY_BYTES: usize = 1024 * 1024;

/// How long protocheck listens for start-up output before its first message.
const STARTUP_WINDOW: Duration = Duration::from_millis(50);

/// The cause a late reply's finding names (`late`).
#[derive(Clone, Copy, Debug)]
enum LateVerdict {
    NotFlushed,
    TooSlow,
}

/// A scenario error found while running (exit 2): the scenario, not the bot.
struct ScriptFault(String);

impl From<String> for ScriptFault {
    fn from(s: String) -> Self {
        ScriptFault(s)
    }
}

impl From<crate::scenario::interpret::StepFault> for ScriptFault {
    fn from(e: crate::scenario::interpret::StepFault) -> Self {
        ScriptFault(e.to_string())
    }
}

impl From<crate::games::ScriptError> for ScriptFault {
    fn from(e: crate::games::ScriptError) -> Self {
        ScriptFault(e.0)
    }
}

/// One scenario being run: the game, the tracked session and the ledger
/// shared by the whole table, and the seated bots (one in an ordinary run).
struct Run<'a> {
    game: &'a dyn Game,
    scenario: &'a Scenario,
    cfg: &'a RunConfig,
    session: Box<dyn Session>,
    /// Transcript, findings and replay steps: what the run keeps.
    ledger: Ledger,
    /// The bots at the table, each with its connection, life and time.
    seats: Vec<Seat>,
    /// The seat protocheck is dealing with now: what it sends goes to this
    /// bot, what it waits for comes from it, what it finds is about it.
    at: SeatId,
    /// The scenario is over and protocheck is ending the bots' sessions.
    finishing: bool,
    /// Each seat has its own session (`seat_refereed`).
    own_sessions: bool,
    rng: fastrand::Rng,
}

impl Run<'_> {
    /// Seat one more bot at the table (the first is seated by `start_run`),
    /// with the same limits and windows as the first.
    fn seat_another(&mut self, command: &BotCommand) -> Result<SeatId, SpawnError> {
        let (conn, first_due) = connect(self.game, self.cfg, command)?;
        let time = self.seats[SeatId(0)].time.fresh(first_due);
        self.seats.push(Seat::new(
            Inbox::new(conn, self.cfg.max_output),
            time,
            command,
        ));
        Ok(SeatId(self.seats.len() - 1))
    }

    /// Seat one more bot refereed by its own `session` (`protocheck match`:
    /// one session per seat). Every seat of such a table has its own: the
    /// first seat's is the run's own.
    fn seat_refereed(
        &mut self,
        command: &BotCommand,
        session: Box<dyn Session>,
    ) -> Result<SeatId, SpawnError> {
        let seat = self.seat_another(command)?;
        self.seats[seat].parked = Some(session);
        self.own_sessions = true;
        Ok(seat)
    }

    /// Deal with the bot at `seat` from now on: what protocheck sends goes
    /// to it, what it waits for comes from it, what it finds is about it
    /// (and, where each seat has its own session, that seat's session
    /// judges it).
    fn turn_to(&mut self, seat: SeatId) {
        assert!(seat.0 < self.seats.len(), "{seat} is not at the table");
        if seat != self.at
            && let Some(session) = self.seats[seat].parked.take()
        {
            let left = std::mem::replace(&mut self.session, session);
            self.seats[self.at].parked = Some(left);
        }
        self.at = seat;
    }

    /// Every seat at the table, in order.
    fn seat_ids(&self) -> Vec<SeatId> {
        (0..self.seats.len()).map(SeatId).collect()
    }

    /// The bot at this seat went away (or was stopped): protocheck no
    /// longer talks to it.
    fn gone(&self) -> bool {
        self.seats[self.at].life.is_gone()
    }

    /// The bot at this seat crossed an output bound.
    fn stopped(&self) -> bool {
        self.seats[self.at].life.is_stopped()
    }
}

/// Run one scenario. `Err` only when the bot cannot be started at all.
pub fn run(
    scenario: &Scenario,
    game: &dyn Game,
    cfg: &RunConfig,
) -> Result<ScenarioRun, SpawnError> {
    run_aimed(scenario, game, cfg, None)
}

/// Run one scenario; a generated game's session is told what the run
/// reached before it (`aims`, see `coverage::Aims`), so protocheck's own
/// choices prefer what is still missing.
pub fn run_aimed(
    scenario: &Scenario,
    game: &dyn Game,
    cfg: &RunConfig,
    aims: Option<crate::coverage::Aims>,
) -> Result<ScenarioRun, SpawnError> {
    let mut run = match start_run(scenario, game, cfg)? {
        Ok(run) => run,
        Err(not_run) => return Ok(not_run),
    };
    if let Some(aims) = aims {
        run.session.aim(aims);
    }
    let fault = run.steps().err();
    Ok(run.finish(fault))
}

/// Start the bot and a fresh session; `Ok(Err(_))` when the scenario's
/// options give no session (the result says why).
fn start_run<'a>(
    scenario: &'a Scenario,
    game: &'a dyn Game,
    cfg: &'a RunConfig,
) -> Result<Result<Run<'a>, ScenarioRun>, SpawnError> {
    let session = match game.session(&scenario.options) {
        Ok(s) => s,
        Err(e) => {
            return Ok(Err(error_result(
                scenario,
                format!("{}: {e}", scenario.source),
            )));
        }
    };
    let defaults = game.defaults();
    let timeout = scenario
        .options
        .timeout
        .or(cfg.timeout)
        .unwrap_or(defaults.reply_timeout);
    let (conn, first_due) = connect(game, cfg, &cfg.bot)?;
    let seed = scenario
        .options
        .seed
        .unwrap_or_else(|| name_seed(&scenario.name));
    let time = Timing {
        timeout,
        startup_timeout: cfg
            .startup_timeout
            .unwrap_or(defaults.startup_timeout)
            .max(timeout),
        exit_grace: cfg.exit_grace.unwrap_or(defaults.exit_grace),
        silence: scenario
            .options
            .silence
            .or(cfg.silence)
            .unwrap_or(defaults.silence),
        pause: cfg.silence.unwrap_or(defaults.pause),
        explicit_silence: cfg.silence.is_some() || scenario.options.silence.is_some(),
        slowest_reply: Duration::ZERO,
        listened: Duration::ZERO,
        first_due,
        timed_out_at: None,
        late: None,
        late_arrival: None,
        ended: None,
        flushed_late: false,
        idle_seed: None,
    };
    let run = Run {
        game,
        scenario,
        cfg,
        session,
        ledger: Ledger::new(),
        seats: vec![Seat::new(Inbox::new(conn, cfg.max_output), time, &cfg.bot)],
        at: SeatId(0),
        finishing: false,
        own_sessions: false,
        rng: fastrand::Rng::with_seed(seed),
    };
    Ok(Ok(run))
}

/// Start one bot (or, over TCP, listen for it): its connection, and when a
/// reply due from the start is due.
fn connect(
    game: &dyn Game,
    cfg: &RunConfig,
    command: &BotCommand,
) -> Result<(BotConnection, Instant), SpawnError> {
    let mut bot = command.clone();
    bot.args
        .extend(game.facts().bot_args.iter().map(|a| a.to_string()));
    let framer = game.framer(cfg.limits.message_cap);
    // A reply due from the start is due once a TCP bot has connected; until
    // then it is held back by the connect deadline.
    let mut first_due = Instant::now();
    let conn = match game.facts().wire.transport {
        Transport::Stdio => BotConnection::spawn(&bot, framer, &cfg.limits)?,
        Transport::Tcp => {
            let listener = crate::transport::tcp::LoopbackListener::bind(cfg.tcp.port).map_err(
                |e| SpawnError {
                    program: bot.program.clone(),
                    error: std::io::Error::new(
                        e.kind(),
                        format!(
                            "cannot listen on 127.0.0.1:{}: {e} (is another program using that port? choose another with --port, or 0 for a free one)",
                            cfg.tcp.port
                        ),
                    ),
                },
            )?;
            let setup = crate::transport::tcp_connection::TcpSetup {
                listener,
                connect_within: cfg.startup_timeout.unwrap_or(CONNECT_DEFAULT),
                spawn: !cfg.tcp.no_spawn,
                write_timeout: TCP_WRITE_TIMEOUT,
                run_stop: cfg.stop.clone(),
            };
            first_due += setup.connect_within;
            BotConnection::spawn_tcp(&bot, framer, &cfg.limits, setup)?
        }
    };
    Ok((conn, first_due))
}

/// A stable seed from a scenario name, so the built-in opponent's `auto`
/// choices are reproducible without a seed in the file.
fn name_seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn error_result(scenario: &Scenario, error: String) -> ScenarioRun {
    let mut run = ScenarioRun::not_run(scenario, Status::Error);
    run.result.error = Some(error);
    run
}

impl ScenarioRun {
    /// A result for a scenario that did not (or could not) run its steps:
    /// skipped, invalid, or ended by protocheck's own trouble.
    pub fn not_run(scenario: &Scenario, status: Status) -> ScenarioRun {
        ScenarioRun {
            result: ScenarioResult {
                about: scenario.about.clone(),
                rules: scenario.rules.clone(),
                ..ScenarioResult::new(&scenario.name, &scenario.game, &scenario.source, status)
            },
            replay_steps: Vec::new(),
            startup_failure: None,
        }
    }
}
