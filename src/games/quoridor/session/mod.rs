//! Quoridor as the controller sees it: protocheck sends QTP commands and
//! knows the true state after each; every response is framed (§1.4) and
//! judged against what a conforming engine must answer.

mod scripted;
mod assemble;
mod clock;
mod ending;
mod judge;
mod plan;
mod relay;

use super::catalogue as rule;
use super::coverage;
use super::expect::Outcome;
use super::expectations::QtpExpect;
use super::notation::{self, Command};
use super::player;
use super::rules::{Action, Board, Colour};
use crate::games::{Assembly, Drawn, Judged, Next, Outgoing, ScriptError, Scripted, Session};
use crate::scenario_model::{Expect, Strategy};
use crate::shared_rules::EXPECT_REPLY;
use crate::transport::ExitStatus;
use crate::verdict::{RuleInfo, Severity, Violation};
use assemble::Assembling;
use plan::{Pending, expects_success};
use std::collections::VecDeque;
use std::time::Duration;

/// After the last line of an otherwise complete response, how long to wait
/// for its terminating empty line (quoridor.md §1.4).
const TERMINATOR_GRACE: Duration = Duration::from_millis(300);
/// The referee stops waiting for acknowledgements after 2 s (§6).
const ACK_LIMIT: Duration = Duration::from_secs(2);
/// Generated games stop after this many plies without a winner.
const MAX_PLIES: usize = 2000;

pub struct QtpSession {
    /// The board size set by the last accepted `boardsize` (None: undefined).
    size: Option<u8>,
    /// The true position once `clear_board` has been sent.
    board: Option<Board>,
    walls_set: bool,
    /// During lint: history entries whose content is unknown (unpinned genmove).
    unknown: usize,
    pending: VecDeque<Pending>,
    /// `quit` was answered: the engine must exit now.
    quit_answered: bool,
    quit_sent: bool,
    eof: bool,
    /// Output after the input was closed has been reported (once is enough:
    /// an engine looping at EOF writes it forever).
    output_after_eof_reported: bool,
    winner_asked: bool,
    /// Commands `known_command` declared known.
    declared: Vec<String>,
    /// The engine has answered at least one command.
    answered_any: bool,
    /// The last genmove the engine answered, and for which colour.
    last_genmove: Option<(Colour, Action)>,
    /// The command being judged was refused (correctly): its text. Set
    /// while judging; moved to `previous_refusal` when the next is judged.
    refusal: Option<String>,
    /// The command judged just before was refused: only a refusal
    /// *immediately* before can explain a disagreement.
    previous_refusal: Option<String>,
    /// The previous command was an accepted `undo k`.
    last_undo: Option<u32>,
    /// A setup command was accepted and no move has been played since.
    fresh_setup: bool,
    /// A win was reset by `clear_board`/`boardsize`/undo since it happened.
    win_reset: bool,
    /// The game's `genmove` time so far, and whether it was reported.
    game_clock: clock::GameClock,
    /// How long the reply being judged took ([`Session::reply_took`]).
    took: Option<clock::Took>,
    bot_colour: Colour,
    strategy: Strategy,
    last_own: Option<String>,
    plies_generated: usize,
    /// The last line sent that exercises input handling, for crash reports.
    last_probe: Option<(&'static RuleInfo, String)>,
    /// The reply being assembled: its length and last piece when the state
    /// was cached, and the state after it.
    assembling: (usize, Vec<u8>, Assembling),
    /// The engine has sent a response without its terminating empty line
    /// (reported once found): from then on a response that is one line by
    /// definition is complete at its status line, instead of waiting out the
    /// terminator grace every time.
    terminator_missing: bool,
    /// The move the engine's last genmove answer named, marked in the
    /// report's picture until protocheck sends its next command.
    named: Option<Action>,
    /// The genmove answer the last judged response played (relayed by `protocheck match`).
    played: Option<(Colour, Action)>,
    /// The situations reached (the coverage report).
    situations: crate::coverage::Reached,
    /// Generated play: what the run reached before this game.
    aims: Option<crate::coverage::Aims>,
}

impl QtpSession {
    pub fn new(bot_colour: Colour, strategy: Strategy) -> QtpSession {
        QtpSession {
            size: None,
            board: None,
            walls_set: false,
            unknown: 0,
            pending: VecDeque::new(),
            quit_answered: false,
            quit_sent: false,
            eof: false,
            output_after_eof_reported: false,
            winner_asked: false,
            declared: Vec::new(),
            answered_any: false,
            last_genmove: None,
            refusal: None,
            previous_refusal: None,
            last_undo: None,
            fresh_setup: false,
            win_reset: false,
            game_clock: clock::GameClock::default(),
            took: None,
            bot_colour,
            strategy,
            last_own: None,
            plies_generated: 0,
            last_probe: None,
            assembling: (0, Vec::new(), Assembling::Waiting),
            terminator_missing: false,
            named: None,
            played: None,
            situations: crate::coverage::Reached::new(),
            aims: None,
        }
    }

    fn board(&self) -> Result<&Board, ScriptError> {
        match (&self.board, self.walls_set) {
            (Some(b), true) => Ok(b),
            _ => Err("the position is undefined here: send `boardsize N`, `clear_board` and `walls W` first".into()),
        }
    }

    fn board_mut(&mut self) -> Result<&mut Board, ScriptError> {
        self.board()?;
        Ok(self.board.as_mut().expect("checked"))
    }

    /// The command answered next has a one-line response by definition (a
    /// known command that is not multi-line).
    fn head_one_line(&self) -> bool {
        self.pending
            .front()
            .and_then(|p| p.command.as_ref())
            .is_some_and(|c| !c.multiline_answer())
    }

    fn head_multiline(&self) -> bool {
        self.pending
            .front()
            .and_then(|p| p.command.as_ref())
            .is_some_and(Command::multiline_answer)
    }

    fn turn(&self) -> Colour {
        self.board
            .as_ref()
            .and_then(|b| b.history().last())
            .map_or(Colour::FIRST, |e| e.colour.opposite())
    }
}

impl Session for QtpSession {
    // `abort` keeps its default: the referee sends nothing more; protocheck
    // kills the engine.
    fn send(&mut self, text: &str) -> Result<Outgoing, ScriptError> {
        self.named = None;
        // The probe of *this* write explains a crash that follows it.
        self.last_probe = None;
        let planned = self.plan_block(text)?;
        let replies = planned.len();
        self.pending.extend(planned);
        Ok(Outgoing {
            text: text.to_string(),
            replies,
        })
    }

    fn opponent(
        &mut self,
        choice: &str,
        rng: &mut fastrand::Rng,
    ) -> Result<Vec<Outgoing>, ScriptError> {
        let board = self.board()?.clone();
        let line = match choice.trim() {
            "auto" => {
                if board.winner().is_some() || self.plies_generated >= MAX_PLIES {
                    if !self.winner_asked {
                        self.winner_asked = true;
                        "winner".to_string()
                    } else {
                        "quit".to_string()
                    }
                } else {
                    let colour = self.turn();
                    self.plies_generated += 1;
                    if colour == self.bot_colour {
                        format!("genmove {}", colour.as_str())
                    } else {
                        let action = player::choose(&board, colour, self.strategy, rng);
                        let usual = notation::action_command(colour, action).to_string();
                        self.aims
                            .as_ref()
                            .and_then(|aims| {
                                aims.choose(
                                    &self.situations,
                                    coverage::choices_ahead(&board, colour),
                                )
                            })
                            .unwrap_or(usual)
                    }
                }
            }
            "move" => {
                let colour = self.turn();
                notation::action_command(colour, player::choose(&board, colour, self.strategy, rng))
                    .to_string()
            }
            "repeat-genmove" => {
                // Probe that the engine played its own genmove answer: the
                // same pawn move again, or the same wall slot for the other
                // colour, must now be refused.
                let Some((c, a)) = self.last_genmove else {
                    if self.unknown > 0 {
                        // Lint: the genmove is not pinned, so neither is its
                        // repeat; it is judged at run time.
                        self.pending.push_back(Pending {
                            line: "(repeat of the engine's genmove answer)".into(),
                            command: None,
                            outcome: Outcome::Anything,
                            input: None,
                            after_whitespace_line: false,
                            after_silent_line: None,
                        });
                        return Ok(vec![Outgoing::asking("(repeat-genmove)")]);
                    }
                    return Err("`opponent: repeat-genmove` needs a `genmove` before it".into());
                };
                match a {
                    Action::Step(cell) => notation::Command::PlayMove(c, cell).to_string(),
                    Action::Place(w) => notation::Command::PlayWall(c.opposite(), w).to_string(),
                }
            }
            other => self.relayed(other)?,
        };
        self.last_own = Some(line.clone());
        Ok(vec![self.send(&line)?])
    }

    fn next(&self) -> Next {
        if !self.pending.is_empty() {
            Next::Bot
        } else if self.quit_answered || self.quit_sent || self.eof {
            Next::Finished
        } else {
            Next::Opponent
        }
    }

    fn reply_part(&mut self, so_far: &[u8], piece: &[u8]) -> Assembly {
        self.assemble(so_far, piece)
    }

    fn reply_took(&mut self, wall: Duration, own: Option<Duration>, first: bool) {
        self.took = Some(clock::Took { wall, own, first });
    }

    fn judge(
        &mut self,
        reply: &[u8],
        expect: &Expect,
        waited: Duration,
    ) -> Result<Judged, ScriptError> {
        let expected = QtpExpect::of(expect)?;
        let p = self
            .pending
            .pop_front()
            .ok_or("internal: a response with no command pending")?;
        let took = self.took.take();
        let mut judged = Judged::default();
        self.played = None;
        self.answered_any = true;
        self.previous_refusal = self.refusal.take();
        let parsed = match notation::parse_response(reply) {
            Ok(parsed) => parsed,
            Err(finding) => {
                judged.violations.push(
                    self.violation(finding.rule, &p, finding.message)
                        .with_actual(crate::shown::message_text(reply)),
                );
                return Ok(judged);
            }
        };
        if p.after_whitespace_line && !parsed.response.is_success() && expects_success(&p.outcome) {
            // §7.7: the `?` answers the whitespace-only line; the command's
            // own response is still to come.
            let mut p = p;
            p.after_whitespace_line = false;
            judged.violations.push(
                rule::INPUT_WHITESPACE_ONLY_LINE
                    .violation(
                        "a whitespace-only line was answered (`? …`); it needs no response"
                            .to_string(),
                    )
                    .with_actual(crate::shown::message_text(reply)),
            );
            self.pending.push_front(p);
            judged.still_due = true;
            return Ok(judged);
        }
        if parsed
            .findings
            .iter()
            .any(|f| f.rule.id == rule::FRAMING_NO_TERMINATOR.id)
        {
            self.terminator_missing = true;
        }
        for f in &parsed.findings {
            // `=1 Naive` answers a GTP id the GTP way: no space is owed (§7.6).
            if p.outcome == Outcome::GtpId && f.rule.id == rule::FRAMING_SPACE_AFTER_STATUS.id {
                continue;
            }
            judged.violations.push(
                f.to_violation()
                    .with_actual(crate::shown::message_text(reply)),
            );
        }
        if let Some(silent) = p.after_silent_line
            && !parsed.response.is_success()
            && matches!(p.outcome, Outcome::Name | Outcome::Accept(_))
        {
            judged.violations.push(self.violation(
                silent,
                &p,
                format!(
                    "a line that needs no response came first, and the next command got `? {}`",
                    parsed.response.text().trim()
                ),
            ));
        }
        self.judge_outcome(&p, &parsed.response, &mut judged.violations);
        self.last_undo = match (&p.command, parsed.response.is_success()) {
            (Some(Command::Undo(k)), true) => Some(k.unwrap_or(1)),
            _ => None,
        };
        judged.violations.extend(self.judge_time(&p, waited, took));
        // Explicit expectations, unless the automatic judgement already failed.
        if !judged
            .violations
            .iter()
            .any(|v| v.severity == Severity::Fail)
        {
            let ok = parsed.response.is_success();
            match expected {
                QtpExpect::Success if !ok => judged.violations.push(
                    EXPECT_REPLY
                        .violation(format!(
                            "`{}`: the scenario expects a success (`=`)",
                            p.line
                        ))
                        .with_actual(crate::shown::message_text(reply)),
                ),
                QtpExpect::Error(_) if ok => judged.violations.push(
                    EXPECT_REPLY
                        .violation(format!(
                            "`{}`: the scenario expects a failure (`?`)",
                            p.line
                        ))
                        .with_actual(crate::shown::message_text(reply)),
                ),
                QtpExpect::Error(want)
                    if parsed.response.text().trim() != want.trim()
                        && !judged
                            .violations
                            .iter()
                            .any(|v| v.rule == rule::ERROR_TEXT.id) =>
                {
                    judged.violations.push(rule::ERROR_TEXT.violation(format!(
                        "`{}`: refused with `? {}`, the scenario expects `? {want}`",
                        p.line,
                        parsed.response.text().trim()
                    )));
                }
                _ => {}
            }
        }
        let held = coverage::answered(
            &mut self.situations,
            &p.outcome,
            p.command.as_ref(),
            p.input,
            parsed.response.is_success(),
        );
        if judged.violations.is_empty() {
            judged.passed = held;
        }
        Ok(judged)
    }

    /// The response from its status line on, without the blank and `#`
    /// lines, CR and terminator the controller tolerates (§1.4): a scripted
    /// `reply`/`matches` judges the answer, not how it was framed.
    fn reply_as_read(&self, reply: &[u8]) -> String {
        notation::response_as_read(reply).unwrap_or_else(|| crate::shown::message_text(reply))
    }

    fn unexpected(&mut self, bytes: &[u8]) -> Option<Violation> {
        let (text, _) = notation::clean_output(&String::from_utf8_lossy(bytes));
        let line = text.trim_end_matches('\n');
        let shown = crate::shown::message_text(bytes);
        if line.trim().is_empty() {
            return None; // blank lines between responses are allowed
        }
        if self.eof {
            return self.output_after_eof(&shown);
        }
        if line.starts_with('=') || line.starts_with('?') {
            return Some(
                rule::FRAMING_EXTRA_RESPONSE
                    .violation(format!(
                        "a response `{shown}` arrived with no command pending"
                    ))
                    .with_actual(shown),
            );
        }
        let what = if line.starts_with('#') {
            "a `#` comment line"
        } else {
            "a stray line"
        };
        Some(
            rule::IO_UNEXPECTED_OUTPUT
                .violation(format!("{what} outside any response: `{shown}`"))
                .with_actual(shown),
        )
    }

    fn timed_out(&self, limit: Duration) -> Violation {
        let limit = humantime::format_duration(limit);
        match self.pending.front() {
            Some(p) => self
                .blame(p)
                .unwrap_or(&rule::IO_TIMEOUT)
                .violation(format!(
                    "no complete response to `{}` within {limit}",
                    p.line.replace('\r', "\\r")
                )),
            None => rule::IO_TIMEOUT.violation(format!("no complete response within {limit}")),
        }
    }

    fn closed(&self, exit: Option<ExitStatus>, partial: Option<&[u8]>) -> Option<Violation> {
        self.closed_finding(exit, partial)
    }

    fn exit_state(&self) -> crate::games::ExitState {
        // `quit` answered is both the end message and the end of the game.
        crate::games::ExitState {
            told_end: self.quit_answered,
            over: self.quit_answered,
            input_closed: self.eof,
        }
    }

    fn input_closed(&mut self) {
        self.eof = true;
    }

    fn is_over(&self) -> bool {
        self.quit_answered || self.eof
    }

    fn relay(&self) -> Option<&dyn crate::games::Relay> {
        Some(self)
    }

    fn ending(&self) -> Option<crate::games::Ending> {
        self.ended()
    }

    fn aim(&mut self, aims: crate::coverage::Aims) {
        self.aims = Some(aims);
    }

    fn reached(&self) -> Vec<(&'static str, u64)> {
        self.situations.iter().collect()
    }

    fn finish(&mut self, _stderr_bytes: u64, stderr_tail: &str) -> Vec<Violation> {
        // Only the kept tail can be scanned; it is where debug output ends up.
        stderr_tail
            .lines()
            .find(|l| l.starts_with('=') || l.starts_with('?'))
            .map(|l| {
                rule::PROCESS_STDERR_RESPONSE_LIKE.violation(format!("stderr line `{l}` looks like a response; the referee reads stderr and stdout as one stream"))
            })
            .into_iter()
            .collect()
    }
}

#[cfg(test)]
mod tests;
