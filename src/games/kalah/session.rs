//! Kalah as the controller sees it: which messages protocheck may send in the
//! tracked state, when the bot owes a reply, and how each reply is judged.
//! The bot plays one side; protocheck plays the engine and the opponent.

use super::catalogue as rule;
use super::coverage;
use super::grammar::{self, BotMessage, EngineMessage, Turn};
use super::opponent;
use super::rules::{Board, Illegal, Move, Position, Side};
use super::steer;
use crate::games::{Drawn, Judged, Next, Outgoing, ScriptError, Scripted, Session};
use crate::scenario_model::{Expect, Strategy, SwapPolicy};
use crate::transport::ExitStatus;
use crate::verdict::Violation;
use std::time::Duration;
use texts::{empty_hole_text, illegal_text, move_line, move_text, swap_refusal, turn_word};

/// What the bot was told last: decides which diagnosis fits a silence or an
/// unexpected line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Told {
    Nothing,
    Start(Side),
    /// A CHANGE; `own` when it reported the bot's own move.
    Change {
        turn: Turn,
        own: bool,
    },
    /// `CHANGE;SWAP;…;YOU`: the opponent swapped.
    SwapNotice,
    /// The bot sent SWAP and has been told nothing since.
    BotSwapped,
    End,
}

/// The reference's cumulative time budget per match (kalah.md §6).
const TIME_BUDGET: Duration = Duration::from_secs(3600);
/// The pipe buffer the reference never drains (kalah.md §1).
const STDERR_LIMIT: u64 = 64 * 1024;

pub struct KalahSession {
    holes: usize,
    position: Position,
    /// The bot's current side (it changes when someone swaps).
    bot: Option<Side>,
    told: Told,
    /// `CHANGE;…;END` or `END` has been sent: no reply is ever due again.
    over: bool,
    end_sent: bool,
    /// False during lint after a bot move that the scenario did not pin.
    known: bool,
    strategy: Strategy,
    swap: SwapPolicy,
    last_opponent: Option<String>,
    time_used: Duration,
    budget_reported: bool,
    /// protocheck closed the bot's input without END.
    eof: bool,
    /// Output after that close was reported (once: it is one behaviour).
    eof_output_reported: bool,
    /// Pacing: `…;OPP` answers to the bot's own moves so far, whether its
    /// last own move earned an extra turn, and whether the `…;OPP` just sent
    /// is one where out-of-turn output is most likely.
    own_opps: u32,
    extra_turn: bool,
    risky_opp: bool,
    /// The hole the bot's last move named, drawn until protocheck speaks.
    named: Option<(Side, usize)>,
    /// The move the last judged reply made (`protocheck match` relays it).
    played: Option<Move>,
    /// The situations reached (the coverage report).
    situations: coverage::Tracker,
    /// Generated play: what the run reached before this game.
    aims: Option<crate::coverage::Aims>,
}

impl KalahSession {
    pub fn new(holes: usize, seeds: u32, strategy: Strategy, swap: SwapPolicy) -> KalahSession {
        KalahSession {
            holes,
            position: Position::new(holes, seeds),
            bot: None,
            told: Told::Nothing,
            over: false,
            end_sent: false,
            known: true,
            strategy,
            swap,
            last_opponent: None,
            time_used: Duration::ZERO,
            budget_reported: false,
            eof: false,
            eof_output_reported: false,
            own_opps: 0,
            extra_turn: false,
            risky_opp: false,
            named: None,
            played: None,
            situations: coverage::Tracker::default(),
            aims: None,
        }
    }

    fn bot_side(&self) -> Result<Side, ScriptError> {
        self.bot.ok_or_else(|| {
            "the game has not started: send `START;South` or `START;North` first".into()
        })
    }

    fn bot_to_move(&self) -> bool {
        Some(self.position.to_move()) == self.bot && !self.position.is_over()
    }

    /// The turn field as the bot must read it after a move.
    fn turn_for_bot(&self) -> Turn {
        if self.position.is_over() {
            Turn::End
        } else if self.bot_to_move() {
            Turn::You
        } else {
            Turn::Opp
        }
    }

    /// The CHANGE (and END, if the game ended) reporting a move to the bot.
    fn report_move(&mut self, mv: Move, own: bool) -> Vec<Outgoing> {
        let turn = self.turn_for_bot();
        let line = grammar::format_change(mv, self.position.board(), turn);
        let mut out = vec![Outgoing {
            text: line,
            replies: usize::from(turn == Turn::You),
        }];
        self.told = Told::Change { turn, own };
        if own {
            // The first `…;OPP` of a game, and one right after an extra turn,
            // are where a bot that misreads the turn field speaks.
            self.risky_opp = turn == Turn::Opp && (self.own_opps == 0 || self.extra_turn);
            self.own_opps += u32::from(turn == Turn::Opp);
            self.extra_turn = turn == Turn::You;
        }
        if turn == Turn::End {
            self.over = true;
            self.end_sent = true;
            self.told = Told::End;
            out.push(Outgoing::silent(grammar::format_end()));
        }
        out
    }

    fn opponent_side(&self) -> Result<Side, ScriptError> {
        let bot = self.bot_side()?;
        if self.over {
            return Err("the game is over: the opponent cannot move".into());
        }
        if self.known && self.position.to_move() == bot {
            return Err(format!(
                "it is the bot's turn ({}), not the opponent's",
                bot.as_str()
            ).into());
        }
        Ok(bot.opposite())
    }

    /// Apply an opponent move and produce what the bot is told about it.
    fn opponent_move(&mut self, mv: Move) -> Result<Vec<Outgoing>, ScriptError> {
        self.named = None;
        let side = self.opponent_side()?;
        if !self.known {
            return Ok(Vec::new());
        }
        let before = *self.position.board();
        let outcome = self.position.play(mv).map_err(|e| {
            format!(
                "the opponent ({}) cannot play {}: {}",
                side.as_str(),
                move_text(mv),
                illegal_text(e, &before, side, mv)
            )
        })?;
        self.situations.played(mv, &outcome, false, self.holes);
        self.last_opponent = Some(match mv {
            Move::Hole(h) => h.to_string(),
            Move::Swap => "swap".into(),
        });
        if mv == Move::Swap {
            // The bot, the original starter, is now North and is told so.
            self.bot = Some(Side::North);
            self.situations.side(Side::North);
            self.told = Told::SwapNotice;
            let line = grammar::format_change(Move::Swap, self.position.board(), Turn::You);
            return Ok(vec![Outgoing::asking(line)]);
        }
        Ok(self.report_move(mv, false))
    }

    fn legal_list(&self) -> String {
        let moves: Vec<String> = self.position.legal_moves().map(move_line).collect();
        moves.join(" | ")
    }

    /// Validate a scripted `CHANGE` that reports an opponent move.
    fn scripted_change(
        &mut self,
        mv: Move,
        counts: &[u32],
        turn: Turn,
    ) -> Result<Outgoing, ScriptError> {
        if !self.known {
            return Err("the board is unknown here, because the bot's previous move is not pinned: use `opponent: <hole>` or `opponent: auto` so protocheck writes the CHANGE, or pin the bot's reply with `expect: { reply: \"MOVE;<h>\" }`".into());
        }
        let side = self.opponent_side()?;
        let claimed = Board::from_counts(self.holes, counts).ok_or_else(|| {
            format!(
                "the state has {} numbers; Kalah({}) needs {}",
                counts.len(),
                self.holes,
                2 * (self.holes + 1)
            )
        })?;
        let mut after = self.position;
        let before = *self.position.board();
        after.play(mv).map_err(|e| {
            format!(
                "{} cannot play {} here: {}",
                side.as_str(),
                move_text(mv),
                illegal_text(e, &before, side, mv)
            )
        })?;
        if *after.board() != claimed {
            return Err(format!(
                "this CHANGE does not follow from the rules: after {} plays {} from {}, the board is {}, not {}",
                side.as_str(),
                move_text(mv),
                before.state_string(),
                after.board().state_string(),
                claimed.state_string()
            ).into());
        }
        let mut out = self.opponent_move(mv)?;
        let want = out.remove(0);
        let sent_turn = if mv == Move::Swap {
            Turn::You
        } else {
            self.turn_for_bot()
        };
        if turn != sent_turn {
            return Err(format!(
                "the turn field must be {} here (the line protocheck would send is `{}`)",
                turn_word(sent_turn),
                want.text
            ).into());
        }
        // The scripted line is now exactly the one protocheck would send; an
        // END that follows must be scripted too, so it is not queued here.
        if turn == Turn::End {
            self.end_sent = false;
            self.told = Told::Change {
                turn: Turn::End,
                own: false,
            };
        }
        Ok(want)
    }

    fn note_time(&mut self, waited: Duration) -> Option<Violation> {
        self.time_used += waited;
        if self.time_used > TIME_BUDGET && !self.budget_reported {
            self.budget_reported = true;
            return Some(rule::TIME_BUDGET.violation(format!(
                "the bot's replies took {:.1} s in all, over the reference's {} s budget",
                self.time_used.as_secs_f64(),
                TIME_BUDGET.as_secs()
            )));
        }
        None
    }

    /// Judge a line that claims to be the bot's move.
    fn judge_move(&mut self, line: &[u8]) -> Judged {
        let mut judged = Judged::default();
        self.named = None;
        self.played = None;
        let shown = crate::shown::message_text(line);
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let msg = match grammar::classify_bot_line(body, self.holes) {
            Ok(m) => m,
            Err(rejection) => {
                let v = rejection
                    .rule
                    .violation(rejection.detail.clone())
                    .with_actual(shown)
                    .with_expected(self.legal_list());
                judged.violations.push(v);
                return judged;
            }
        };
        let bot = self.bot.expect("a reply is due only after START");
        let mv = match msg {
            BotMessage::Swap => Move::Swap,
            BotMessage::Move {
                hole,
                non_canonical,
            } => {
                if non_canonical {
                    judged.violations.push(
                        rule::MOVE_NUMBER_FORMAT
                            .violation(format!("`{shown}` names hole {hole} with a sign or leading zeros; write `MOVE;{hole}`"))
                            .with_actual(shown.clone())
                            .with_expected(format!("MOVE;{hole}")),
                    );
                }
                self.named = Some((bot, usize::from(hole)));
                Move::Hole(hole)
            }
        };
        // A reply after an extra turn or a swap notice is the turn it owed.
        let owed = matches!(
            self.told,
            Told::Change {
                turn: Turn::You,
                own: true
            } | Told::SwapNotice
        );
        judged.passed = coverage::checks_held(msg, owed, self.position.check(mv));
        if let Err(e) = self.position.check(mv) {
            let (r, detail) = match e {
                Illegal::SwapNotAllowed => {
                    (&rule::SWAP_NOT_ALLOWED, swap_refusal(&self.position, bot))
                }
                Illegal::HoleOutOfRange => (
                    &rule::MOVE_HOLE_RANGE,
                    format!(
                        "hole {} does not exist: holes are 1..{}",
                        move_text(mv),
                        self.holes
                    ),
                ),
                Illegal::EmptyHole => (
                    &rule::MOVE_EMPTY_HOLE,
                    empty_hole_text(self.position.board(), bot, mv, self.position.swapped()),
                ),
                Illegal::GameOver => (&rule::IO_UNEXPECTED_OUTPUT, "the game is over".to_string()),
            };
            judged.violations.push(
                r.violation(detail)
                    .with_actual(shown)
                    .with_expected(self.legal_list()),
            );
            return judged;
        }
        let outcome = self.position.play(mv).expect("checked");
        self.situations.played(mv, &outcome, true, self.holes);
        self.played = Some(mv);
        if mv == Move::Swap {
            // The swapper is told nothing; it is South now and waits.
            self.bot = Some(Side::South);
            self.situations.side(Side::South);
            self.told = Told::BotSwapped;
            return judged;
        }
        judged.follow_ups = self.report_move(mv, true);
        judged
    }
}

impl Session for KalahSession {
    fn send(&mut self, text: &str) -> Result<Outgoing, ScriptError> {
        self.named = None;
        let msg = grammar::parse_engine_message(text, self.holes)?;
        match msg {
            EngineMessage::Start(side) => {
                if self.bot.is_some() {
                    return Err(
                        "START was already sent: it is the first message of a match and comes once"
                            .into(),
                    );
                }
                self.bot = Some(side);
                self.told = Told::Start(side);
                self.situations.side(side);
                Ok(Outgoing {
                    text: text.to_string(),
                    replies: usize::from(side == Side::South),
                })
            }
            EngineMessage::Change { mv, counts, turn } => {
                self.bot_side()?;
                if self.over {
                    return Err("the game is over: no CHANGE may follow".into());
                }
                if self.known && self.bot_to_move() {
                    return Err("it is the bot's turn: protocheck sends the CHANGE for the bot's own move itself, after the bot has moved".into());
                }
                self.scripted_change(mv, &counts, turn)
            }
            EngineMessage::End => {
                if self.end_sent {
                    return Err("END was already sent: nothing follows it".into());
                }
                self.over = true;
                self.end_sent = true;
                self.told = Told::End;
                Ok(Outgoing::silent(text))
            }
        }
    }

    fn opponent(
        &mut self,
        choice: &str,
        rng: &mut fastrand::Rng,
    ) -> Result<Vec<Outgoing>, ScriptError> {
        let mv = match choice.trim().to_ascii_lowercase().as_str() {
            "swap" => Move::Swap,
            "auto" => {
                self.opponent_side()?;
                if !self.known {
                    return Ok(Vec::new());
                }
                let usual = opponent::choose(&self.position, self.strategy, self.swap, rng);
                self.aims
                    .as_ref()
                    .and_then(|aims| {
                        aims.choose(
                            &self.situations.reached,
                            coverage::choices_ahead(&self.position, self.swap),
                        )
                    })
                    .unwrap_or(usual)
            }
            other => match (other.parse::<u8>(), steer::Aim::parse(other)) {
                (Ok(h), _) if (1..=self.holes).contains(&usize::from(h)) => Move::Hole(h),
                (_, Some(aim)) => {
                    // Best effort: once the game is over (or, in lint, the
                    // board unknown) a steered move does nothing, so a
                    // scenario may repeat the word generously.
                    if self.over || self.position.is_over() || !self.known {
                        self.last_opponent = None;
                        return Ok(Vec::new());
                    }
                    self.opponent_side()?;
                    steer::choose(&self.position, aim)
                }
                _ => {
                    return Err(format!(
                        "`opponent: {choice}`: expected a hole number 1..{}, `swap`, `auto` or one of {}",
                        self.holes,
                        steer::Aim::WORDS.join(", ")
                    ).into());
                }
            },
        };
        self.opponent_move(mv)
    }

    fn next(&self) -> Next {
        if self.over || self.position.is_over() {
            Next::Finished
        } else if self.bot_to_move() {
            Next::Bot
        } else {
            Next::Opponent
        }
    }

    fn silence_matters(&self) -> bool {
        match self.told {
            Told::Change {
                turn: Turn::Opp,
                own: true,
            } => self.risky_opp,
            Told::Change {
                turn: Turn::Opp,
                own: false,
            } => false,
            _ => true,
        }
    }

    fn judge(
        &mut self,
        reply: &[u8],
        _expect: &Expect,
        waited: Duration,
    ) -> Result<Judged, ScriptError> {
        let budget = self.note_time(waited);
        let mut judged = self.judge_move(reply);
        judged.violations.extend(budget);
        Ok(judged)
    }

    fn unexpected(&mut self, bytes: &[u8]) -> Option<Violation> {
        self.unexpected_finding(bytes)
    }

    fn timed_out(&self, limit: Duration) -> Violation {
        self.timeout_finding(limit)
    }

    fn closed(&self, exit: Option<ExitStatus>, partial: Option<&[u8]>) -> Option<Violation> {
        self.closed_finding(exit, partial)
    }

    fn exit_state(&self) -> crate::games::ExitState {
        crate::games::ExitState {
            told_end: self.end_sent,
            over: self.over,
            input_closed: self.eof,
        }
    }

    fn input_closed(&mut self) {
        self.eof = true;
    }

    fn abort(&mut self) -> Vec<Outgoing> {
        self.named = None;
        if self.end_sent || self.bot.is_none() {
            return Vec::new();
        }
        self.over = true;
        self.end_sent = true;
        self.told = Told::End;
        vec![Outgoing::silent(grammar::format_end())]
    }

    fn is_over(&self) -> bool {
        self.over || self.eof
    }

    fn relay(&self) -> Option<&dyn crate::games::Relay> {
        Some(self)
    }

    fn ending(&self) -> Option<crate::games::Ending> {
        relay::ending(&self.position, self.bot?)
    }

    fn aim(&mut self, aims: crate::coverage::Aims) {
        self.aims = Some(aims);
    }

    fn reached(&self) -> Vec<(&'static str, u64)> {
        self.situations.reached.iter().collect()
    }

    fn quiet_rule(&self) -> Option<crate::verdict::RuleId> {
        self.quiet_rule_now()
    }

    fn finish(&mut self, stderr_bytes: u64, _stderr_tail: &str) -> Vec<Violation> {
        if stderr_bytes > STDERR_LIMIT {
            vec![rule::PROCESS_STDERR_OVERFLOW.violation(format!(
                "the bot wrote {stderr_bytes} bytes to stderr; the reference never reads stderr, so past {STDERR_LIMIT} bytes the bot would block and lose on time"
            ))]
        } else {
            Vec::new()
        }
    }
}

mod scripted;
mod ending;
mod relay;
mod texts;

#[cfg(test)]
mod tests;
