//! `protocheck match`: one game between real bots, one seat each. Each bot
//! is refereed by its own ordinary `Session` (so every message is judged
//! with the rules and ids of a single run), which takes the other bots for
//! protocheck's own side: when a seat's session wants the opponent's move,
//! it is the move another seat's bot just made, judged legal by that seat's
//! session and given on through `Session::opponent`. The first failure at
//! the table ends the game, as it ends a single run.

use super::{Run, RunConfig, ScenarioRun, ScriptFault, start_run};
use crate::games::{Ending, Game, Next, Session};
use crate::scenario::{Expect, Scenario, Step};
use crate::transport::{BotCommand, SpawnError};
use std::collections::VecDeque;

/// One seat of a match: the bot, the session that referees it, and what
/// protocheck tells it before play (Kalah: its `START`; QTP: the set-up).
pub struct SeatPlan {
    pub bot: BotCommand,
    pub session: Box<dyn Session>,
    pub opening: Vec<String>,
}

/// One game of a match as it was played.
pub struct MatchGame {
    /// The table's result: one transcript (each line says its seat), every
    /// seat's findings in the order they were found.
    pub run: ScenarioRun,
    /// The seat (0-based) each of `run.result.violations` is about.
    pub finding_seats: Vec<usize>,
    /// Every move made, in order: the seat that made it, in the notation
    /// the other sessions were given.
    pub moves: Vec<(usize, String)>,
    /// How the game ended for each seat's bot, as its own session tracked
    /// it (`None`: the game did not reach its end).
    pub endings: Vec<Option<Ending>>,
    /// The seats stopped making progress without a failure or an end (each
    /// waits for the other): protocheck ended the game.
    pub stalled: bool,
}

/// Play one game: `seats[i]` sits at seat i (seat 1 first); `scenario` gives
/// the game's name, options and seed (its steps are not used). `Err` only
/// when a bot cannot be started at all.
pub fn play_match(
    scenario: &Scenario,
    game: &dyn Game,
    cfg: &RunConfig,
    seats: Vec<SeatPlan>,
) -> Result<MatchGame, SpawnError> {
    let Some(first) = seats.first() else {
        return Ok(not_played(ScenarioRun::not_run(
            scenario,
            crate::outcome::Status::Error,
        )));
    };
    let cfg = RunConfig {
        bot: first.bot.clone(),
        ..cfg.clone()
    };
    let mut run = match start_run(scenario, game, &cfg)? {
        Ok(run) => run,
        Err(not_run) => return Ok(not_played(not_run)),
    };
    let mut openings = Vec::with_capacity(seats.len());
    for (i, plan) in seats.into_iter().enumerate() {
        if i == 0 {
            run.session = plan.session;
        } else {
            run.seat_refereed(&plan.bot, plan.session)?;
        }
        openings.push(plan.opening);
    }
    run.own_sessions = true;
    let mut table = Table {
        inbound: vec![VecDeque::new(); openings.len()],
        finished: vec![false; openings.len()],
        moves: Vec::new(),
        stalled: false,
    };
    let fault = run.relay(openings, &mut table).err();
    let endings = run
        .seat_ids()
        .into_iter()
        .map(|seat| {
            run.turn_to(seat);
            run.session.ending()
        })
        .collect();
    let (result, finding_seats) = run.finish_seated(fault);
    Ok(MatchGame {
        run: result,
        finding_seats: finding_seats.into_iter().map(|s| s.0).collect(),
        moves: table.moves,
        endings,
        stalled: table.stalled,
    })
}

fn not_played(run: ScenarioRun) -> MatchGame {
    MatchGame {
        run,
        finding_seats: Vec::new(),
        moves: Vec::new(),
        endings: Vec::new(),
        stalled: false,
    }
}

/// What the relay keeps between seats.
struct Table {
    /// Moves made at other seats that this seat's session has not yet been
    /// given.
    inbound: Vec<VecDeque<String>>,
    /// The seat's game is over and its exit was seen to.
    finished: Vec<bool>,
    moves: Vec<(usize, String)>,
    stalled: bool,
}

impl Run<'_> {
    fn relay(&mut self, openings: Vec<Vec<String>>, table: &mut Table) -> Result<(), ScriptFault> {
        // Each bot starts as in a single run, then hears its opening (each
        // message after the replies the one before made due).
        for (seat, opening) in self.seat_ids().into_iter().zip(openings) {
            self.turn_to(seat);
            self.begin();
            for text in opening {
                while !self.halted() && !self.seats[self.at].inbox.pending.is_empty() {
                    self.take_reply(table)?;
                }
                if self.halted() {
                    return Ok(());
                }
                let out = self.session.send(&text)?;
                self.ledger.replay.push(Step::Send(text));
                self.write(out);
            }
        }
        loop {
            let mut progressed = false;
            for seat in self.seat_ids() {
                if self.halted() {
                    return Ok(());
                }
                self.turn_to(seat);
                progressed |= self.advance(table)?;
            }
            if self.halted() || table.finished.iter().all(|&f| f) {
                return Ok(());
            }
            if !progressed {
                table.stalled = true;
                self.note("protocheck ended the game: every seat waits for another's move");
                return Ok(());
            }
        }
    }

    /// A failure ends the game for the whole table, as does a bot gone.
    fn halted(&self) -> bool {
        self.has_failure() || self.seats.iter().any(|s| s.life.is_gone())
    }

    /// One action at the seat at hand, as a single run's generated play
    /// takes it (`play_out`), with the opponent's moves relayed. `false`:
    /// this seat waits for another.
    fn advance(&mut self, table: &mut Table) -> Result<bool, ScriptFault> {
        let seat = self.at.0;
        if table.finished[seat] {
            return Ok(false);
        }
        match self.session.next() {
            Next::Bot => {
                if self.seats[self.at].inbox.pending.is_empty() {
                    return Err(ScriptFault(
                        "internal: the game says the bot is to move, but no reply is due".into(),
                    ));
                }
                self.take_reply(table)?;
            }
            Next::Opponent => {
                let choice = if self.session.relay().is_some_and(|r| r.awaits_relay()) {
                    match table.inbound[seat].pop_front() {
                        Some(mv) => mv,
                        None => return Ok(false),
                    }
                } else {
                    "auto".to_string()
                };
                // A pause first, as in a single run: output the bot sends
                // now is out of turn.
                let window = self.pause_window();
                if !window.is_zero() {
                    self.listen(window);
                    if self.halted() {
                        return Ok(true);
                    }
                }
                let outs = self.session.opponent(&choice, &mut self.rng)?;
                self.ledger
                    .replay
                    .push(Step::Opponent(crate::scenario::Token(choice)));
                self.write_all(outs);
            }
            Next::Finished => {
                self.ledger.replay.push(Step::Expect(Expect::Exit));
                self.close_input_at_end();
                self.expect_exit();
                table.finished[seat] = true;
            }
        }
        Ok(true)
    }

    /// Wait for and judge the reply due at this seat; a move it made goes
    /// to every other seat.
    fn take_reply(&mut self, table: &mut Table) -> Result<(), ScriptFault> {
        let seen = self.seats[self.at].inbox.replies_seen;
        self.ledger.replay.push(Step::Expect(Expect::LegalMove));
        self.await_reply(&Expect::LegalMove)?;
        if self.has_failure() || self.seats[self.at].inbox.replies_seen <= seen {
            return Ok(());
        }
        if let Some(mv) = self.session.relay().and_then(|r| r.played()) {
            let from = self.at.0;
            table.moves.push((from, mv.clone()));
            for (other, queue) in table.inbound.iter_mut().enumerate() {
                if other != from {
                    queue.push_back(mv.clone());
                }
            }
            // The seats that will hear this move have waited through the
            // mover's turn: a look now starts the proof that they are idle,
            // which their pause before the move completes.
            for other in self.seat_ids() {
                if other.0 != from && !table.finished[other.0] {
                    self.look_while_waiting(other);
                }
            }
        }
        Ok(())
    }
}
