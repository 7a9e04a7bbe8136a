//! Quoridor as the controller sees it: protocheck sends QTP commands and
//! knows the true state after each; every response is framed (§1.4) and
//! judged against what a conforming engine must answer.

use super::catalogue as rule;
use super::expect::{self, Outcome};
use super::notation::{self, Command, CommandError, Response};
use super::player;
use super::rules::{Action, Board, Colour};
use crate::controller::EXPECT_REPLY;
use crate::games::{Assembly, Judged, Next, Outgoing, ScriptError, Session};
use crate::scenario::{Expect, Strategy};
use crate::transport::ExitStatus;
use crate::verdict::{RuleInfo, Severity, Violation};
use std::collections::VecDeque;
use std::time::Duration;

/// After the last line of an otherwise complete response, how long to wait
/// for its terminating empty line (quoridor.md §1.4).
const TERMINATOR_GRACE: Duration = Duration::from_millis(300);
/// The referee stops waiting for acknowledgements after 2 s (§6).
const ACK_LIMIT: Duration = Duration::from_secs(2);
/// Generated games stop after this many plies without a winner.
const MAX_PLIES: usize = 2000;

/// A command sent and not yet answered.
#[derive(Clone, Debug)]
struct Pending {
    /// As sent (without LF), for messages.
    line: String,
    command: Option<Command>,
    outcome: Outcome,
    /// The input-handling rule this line exercises, if any.
    input: Option<&'static RuleInfo>,
    /// A whitespace-only line came before it in the same write: a `?` that
    /// comes first is tolerated as that line's answer (§7.7).
    after_whitespace_line: bool,
    /// Lines without response (empty, comment) came before it.
    after_silent_line: Option<&'static RuleInfo>,
}

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
    winner_asked: bool,
    /// Commands `known_command` declared known.
    declared: Vec<String>,
    /// The engine has answered at least one command.
    answered_any: bool,
    /// The last genmove the engine answered, and for which colour.
    last_genmove: Option<(Colour, Action)>,
    /// The previous command was refused (correctly): its text.
    refused_since_change: Option<String>,
    /// The previous command was an accepted `undo k`.
    last_undo: Option<u32>,
    /// A setup command was accepted and no move has been played since.
    fresh_setup: bool,
    /// A win was reset by `clear_board`/`boardsize`/undo since it happened.
    win_reset: bool,
    genmove_time: Duration,
    game_time_reported: bool,
    bot_colour: Colour,
    strategy: Strategy,
    last_own: Option<String>,
    plies_generated: usize,
    /// The last line sent that exercises input handling, for crash reports.
    last_probe: Option<(&'static RuleInfo, String)>,
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
            winner_asked: false,
            declared: Vec::new(),
            answered_any: false,
            last_genmove: None,
            refused_since_change: None,
            last_undo: None,
            fresh_setup: false,
            win_reset: false,
            genmove_time: Duration::ZERO,
            game_time_reported: false,
            bot_colour,
            strategy,
            last_own: None,
            plies_generated: 0,
            last_probe: None,
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

    /// Work out the conforming answer to one command line and apply its
    /// effect to the true state.
    fn plan(&mut self, raw: &str) -> Result<Option<Pending>, ScriptError> {
        let parsed = notation::parse_command(raw);
        let canonical = match &parsed {
            Ok(c) => Some(c.to_string()),
            Err(CommandError::ExtraArguments { command, .. }) => Some(command.to_string()),
            _ => None,
        };
        let input = expect::input_feature(raw, canonical.as_deref());
        let (command, outcome) = match parsed {
            Err(CommandError::Empty) => return Ok(None),
            Err(CommandError::Malformed { name, .. }) => (None, malformed_outcome(name, raw)),
            Err(CommandError::ExtraArguments { command, .. }) => {
                let o = self.outcome_of(&command)?;
                (Some(command), o)
            }
            Ok(Command::Other(text)) => {
                let name = text.split_whitespace().next().unwrap_or("").to_string();
                let outcome = if expect::wrong_case_command(&name) {
                    Outcome::FailurePreferred(&rule::COMMAND_NAME_CASE)
                } else if name.parse::<u64>().is_ok() {
                    // A GTP id (§7.6) is answered either way.
                    Outcome::GtpId
                } else if name == "protocol_version" || name == "version" {
                    Outcome::Anything
                } else {
                    Outcome::Refuse {
                        rule: &rule::COMMAND_UNKNOWN,
                        text: notation::ERR_UNKNOWN_COMMAND,
                        why: format!("`{name}` is not a QTP command"),
                    }
                };
                (Some(Command::Other(text)), outcome)
            }
            Ok(command) => {
                let o = self.outcome_of(&command)?;
                (Some(command), o)
            }
        };
        Ok(Some(Pending {
            line: raw.to_string(),
            command,
            outcome,
            input,
            after_whitespace_line: false,
            after_silent_line: None,
        }))
    }

    fn outcome_of(&mut self, command: &Command) -> Result<Outcome, ScriptError> {
        if self.quit_sent {
            return Err("`quit` was sent: the session is over".into());
        }
        if expect::needs_position(command) && self.unknown > 0 {
            // Lint only: the position depends on an unpinned genmove.
            if let Command::Undo(k) = command {
                let k = k.unwrap_or(1) as usize;
                if k <= self.unknown {
                    self.unknown -= k;
                    return Ok(Outcome::Accept(&rule::UNDO_RESTORES));
                }
                let rest = k - self.unknown;
                self.unknown = 0;
                let b = self.board_mut()?;
                return Ok(if b.undo_n(rest) {
                    Outcome::Accept(&rule::UNDO_RESTORES)
                } else {
                    Outcome::Anything
                });
            }
            if matches!(
                command,
                Command::PlayMove(..) | Command::PlayWall(..) | Command::GenMove(_)
            ) {
                self.unknown += 1;
            }
            return Ok(Outcome::Anything);
        }
        Ok(match command {
            Command::Name => Outcome::Name,
            Command::KnownCommand(name) => {
                Outcome::Known(notation::QTP_COMMANDS.contains(&name.as_str()))
            }
            Command::ListCommands => Outcome::ListCommands,
            Command::Quit => {
                self.quit_sent = true;
                Outcome::Quit
            }
            Command::BoardSize(n) => {
                self.board = None;
                self.walls_set = false;
                self.win_reset = true;
                if super::rules::validate_size(u8::try_from(*n).unwrap_or(0)).is_ok() {
                    self.size = Some(*n as u8);
                    self.fresh_setup = true;
                    Outcome::Accept(&rule::BOARDSIZE_ACCEPTS)
                } else {
                    self.size = None;
                    Outcome::SizeOffSpec
                }
            }
            Command::ClearBoard => {
                let size = self.size.ok_or("`clear_board` needs a board size protocheck can track: send `boardsize N` (odd N, 3..25) first")?;
                self.board = Some(Board::new(size, 0).map_err(|e| e.to_string())?);
                self.walls_set = false;
                self.win_reset = true;
                self.fresh_setup = true;
                self.refused_since_change = None;
                Outcome::Accept(&rule::SETUP_ACK)
            }
            Command::Walls(w) => {
                let size = self
                    .size
                    .ok_or("`walls` needs `boardsize` and `clear_board` first")?;
                let w = u8::try_from(*w).map_err(|_| {
                    format!("protocheck tracks at most 255 walls per player, not {w}")
                })?;
                if self.board.as_ref().is_some_and(|b| b.history_len() > 0) {
                    return Err("send `walls` right after `clear_board`, before any move".into());
                }
                self.board = Some(Board::new(size, w).map_err(|e| e.to_string())?);
                self.walls_set = true;
                self.fresh_setup = true;
                Outcome::Accept(&rule::SETUP_ACK)
            }
            Command::PlayMove(c, cell) => self.action_outcome(*c, Action::Step(*cell))?,
            Command::PlayWall(c, wall) => self.action_outcome(*c, Action::Place(*wall))?,
            Command::GenMove(c) => {
                let b = self.board()?;
                if b.winner().is_some() {
                    return Err("play after a win is not specified by QTP (quoridor.md §3.5): protocheck does not test it".into());
                }
                Outcome::Genmove(*c)
            }
            Command::Undo(k) => {
                let k = k.unwrap_or(1) as usize;
                let b = self.board_mut()?;
                if k == 0 {
                    Outcome::Anything
                } else if b.undo_n(k) {
                    self.win_reset = true;
                    Outcome::Accept(&rule::UNDO_RESTORES)
                } else {
                    Outcome::Refuse {
                        rule: &rule::UNDO_CANNOT,
                        text: notation::ERR_CANNOT_UNDO,
                        why: format!("only {} move(s) have been played", b.history_len()),
                    }
                }
            }
            Command::Winner => Outcome::Winner(self.board()?.winner()),
            Command::ShowBoard => Outcome::ShowBoard,
            Command::Other(_) => Outcome::Anything,
        })
    }

    fn action_outcome(&mut self, c: Colour, a: Action) -> Result<Outcome, ScriptError> {
        let b = self.board_mut()?;
        if b.winner().is_some() {
            return Err("play after a win is not specified by QTP (quoridor.md §3.5): protocheck does not test it".into());
        }
        Ok(match b.play(c, a) {
            Ok(()) => Outcome::Accept(expect::acceptance(a)),
            Err(reason) => {
                let (r, text) = expect::refusal(reason, a);
                Outcome::Refuse {
                    rule: r,
                    text,
                    why: format!("{} {a} is illegal: {reason}", c.as_str()),
                }
            }
        })
    }

    /// Plan every line of one write; a pipelined block after `genmove`
    /// cannot be judged, because its outcome depends on the engine's choice.
    fn plan_block(&mut self, text: &str) -> Result<Vec<Pending>, ScriptError> {
        let lines: Vec<&str> = text.split('\n').collect();
        let mut planned = Vec::new();
        let mut whitespace_before = false;
        let mut silent_before: Option<&'static RuleInfo> = None;
        // The first line of this write that exercises input handling: it
        // explains a crash that follows (a crash is what real engines do on
        // an empty line).
        let mut probe: Option<&'static RuleInfo> = None;
        for (i, line) in lines.iter().enumerate() {
            if planned
                .iter()
                .any(|p: &Pending| matches!(p.outcome, Outcome::Genmove(_)))
            {
                return Err("a command pipelined after `genmove` cannot be judged: protocheck must see the engine's move first".into());
            }
            match self.plan(line)? {
                None => {
                    let cleaned = line.replace('\r', "");
                    let r = if !cleaned.is_empty() && cleaned.trim().is_empty() {
                        whitespace_before = true;
                        &rule::INPUT_WHITESPACE_ONLY_LINE
                    } else if cleaned.contains('#') {
                        silent_before = Some(&rule::INPUT_COMMENT);
                        &rule::INPUT_COMMENT
                    } else {
                        silent_before = Some(&rule::INPUT_EMPTY_LINE);
                        &rule::INPUT_EMPTY_LINE
                    };
                    // The transport adds the final LF: `text` ending in "\n"
                    // really sends an empty line; a lone "" sends one too.
                    probe = probe.or(Some(r));
                }
                Some(mut p) => {
                    p.after_whitespace_line = std::mem::take(&mut whitespace_before);
                    p.after_silent_line = silent_before.take();
                    if i > 0 && lines.len() > 1 && p.input.is_none() {
                        p.input = Some(&rule::INPUT_PIPELINED);
                    }
                    probe = probe.or(p.input);
                    planned.push(p);
                }
            }
        }
        self.last_probe = probe.map(|r| (r, text.to_string()));
        Ok(planned)
    }

    /// The rule a missing or fatal answer to `p` breaks, when more specific
    /// than `io.timeout`/`io.crash`: the input feature the line exercises, or
    /// the kind of command (malformed arguments, an off-spec board size).
    fn blame(&self, p: &Pending) -> Option<&'static RuleInfo> {
        p.after_silent_line.or(p.input).or(match p.outcome {
            Outcome::AnyFailure(r) => Some(r),
            Outcome::SizeOffSpec => Some(&rule::BOARDSIZE_OFF_SPEC),
            _ => None,
        })
    }

    fn head_multiline(&self) -> bool {
        self.pending
            .front()
            .and_then(|p| p.command.as_ref())
            .is_some_and(Command::multiline_answer)
    }

    fn violation(&self, r: &'static RuleInfo, p: &Pending, msg: String) -> Violation {
        r.violation(format!(
            "`{}`: {msg}",
            p.line.replace('\r', "\\r").replace('\t', "\\t")
        ))
    }

    /// A `?` (or a wrong answer) where a conforming engine succeeds: when the
    /// line exercises input handling, the engine most likely did not
    /// understand it, and that rule is the specific diagnosis (quoridor.md
    /// §8, last paragraph). An engine that *accepts* what it should refuse
    /// understood the line and broke the game rule instead.
    fn misunderstood(&self, r: &'static RuleInfo, p: &Pending, msg: String) -> Violation {
        let r = match (p.input, r.severity) {
            (Some(input), Severity::Fail) => input,
            _ => r,
        };
        r.violation(format!(
            "`{}`: {msg}",
            p.line.replace('\r', "\\r").replace('\t', "\\t")
        ))
    }

    /// Judge a parsed response against the planned outcome.
    fn judge_outcome(&mut self, p: &Pending, resp: &Response, out: &mut Vec<Violation>) {
        let ok = resp.is_success();
        let text = resp.text().trim().to_string();
        let shown = format!("{} {}", if ok { "=" } else { "?" }, resp.first_line())
            .trim_end()
            .to_string();
        // Where a success was due and the engine did not deliver it, the
        // input-handling rule of the line is the likelier cause.
        let should_succeed =
            expects_success(&p.outcome) && !matches!(p.outcome, Outcome::Genmove(_));
        let mut fail = |s: &Self, r: &'static RuleInfo, msg: String, expected: &str| {
            let v = if should_succeed
                && (!ok || matches!(p.outcome, Outcome::Known(_) | Outcome::Name))
            {
                s.misunderstood(r, p, msg)
            } else {
                s.violation(r, p, msg)
            };
            out.push(v.with_expected(expected).with_actual(shown.clone()));
        };
        match &p.outcome {
            Outcome::Name if ok && !text.is_empty() => {}
            Outcome::Name => fail(
                self,
                &rule::NAME_RESPONSE,
                "`name` must succeed with a non-empty name".into(),
                "= <name>",
            ),
            Outcome::Known(want) => {
                let got = notation::parse_known_command(resp);
                if got != Some(*want) {
                    fail(
                        self,
                        &rule::KNOWN_COMMAND_ANSWER,
                        format!("known_command must answer `= {want}`"),
                        if *want { "= true" } else { "= false" },
                    );
                }
                if let (Some(true), Some(Command::KnownCommand(name))) = (got, &p.command) {
                    self.declared.push(name.clone());
                }
            }
            Outcome::ListCommands => {
                let listed = notation::parse_list_commands(&text);
                let missing: Vec<&str> = notation::QTP_COMMANDS
                    .iter()
                    .copied()
                    .filter(|c| !listed.iter().any(|l| l == c))
                    .collect();
                if !ok || !missing.is_empty() {
                    fail(
                        self,
                        &rule::LIST_COMMANDS_CONTENT,
                        format!(
                            "list_commands must list every QTP command; missing: {}",
                            missing.join(", ")
                        ),
                        &notation::QTP_COMMANDS.join("\n"),
                    );
                }
            }
            Outcome::Quit => {
                if ok {
                    self.quit_answered = true;
                } else {
                    fail(
                        self,
                        &rule::QUIT_RESPONSE,
                        "`quit` must be answered with `=` before the engine exits".into(),
                        "=",
                    );
                }
            }
            Outcome::Accept(_) if ok => {
                // The engine's state moved on with ours: earlier refusals
                // can no longer explain later disagreements.
                if matches!(
                    p.command,
                    Some(Command::PlayMove(..) | Command::PlayWall(..) | Command::Undo(_))
                ) {
                    self.fresh_setup = false;
                    self.refused_since_change = None;
                }
            }
            Outcome::Accept(r) => {
                let declared = p
                    .command
                    .as_ref()
                    .is_some_and(|c| self.declared.iter().any(|d| d == c.name()));
                let (r, msg) = if declared && text == notation::ERR_UNKNOWN_COMMAND {
                    (&rule::KNOWN_COMMAND_CONSISTENT, "known_command declared this command known, but it answers `? unknown command`".to_string())
                } else if let Some(before) = self.refusal_explains(p) {
                    (
                        &rule::STATE_FAILED_UNCHANGED,
                        format!(
                            "refused although legal in the true position; the refused `{before}` just before seems to have used up a wall"
                        ),
                    )
                } else if self.fresh_setup
                    && matches!(
                        p.command,
                        Some(Command::PlayMove(..) | Command::PlayWall(..))
                    )
                {
                    (
                        *r,
                        "refused although legal right after setup (is the position fully reset?)"
                            .to_string(),
                    )
                } else {
                    (
                        *r,
                        "refused although legal in the true position".to_string(),
                    )
                };
                fail(self, r, msg, "=");
            }
            Outcome::Refuse {
                rule: r,
                text: standard,
                why,
            } => {
                if ok {
                    let applied_probe = matches!((&self.last_genmove, &p.command), (Some((_, a)), Some(Command::PlayMove(_, c))) if *a == Action::Step(*c))
                        || matches!((&self.last_genmove, &p.command), (Some((_, a)), Some(Command::PlayWall(_, w))) if *a == Action::Place(*w));
                    let (r, msg) = if applied_probe {
                        (
                            &rule::GENMOVE_APPLIED,
                            format!(
                                "accepted, so the engine had not played its own genmove answer ({why})"
                            ),
                        )
                    } else if **r == rule::UNDO_CANNOT
                        && let Some(k) = self.last_undo
                    {
                        (
                            &rule::UNDO_RESTORES,
                            format!(
                                "accepted, so the engine had more moves left than it should: the `undo {k}` before did not take back {k} moves ({why})"
                            ),
                        )
                    } else if self.fresh_setup && **r == rule::UNDO_CANNOT {
                        (
                            &rule::SETUP_RESET,
                            format!(
                                "accepted `undo` right after setup: the history was not emptied ({why})"
                            ),
                        )
                    } else {
                        (*r, format!("accepted, but {why}"))
                    };
                    fail(self, r, msg, &format!("? {standard}"));
                } else {
                    if text != *standard {
                        out.push(
                            self.violation(
                                &rule::ERROR_TEXT,
                                p,
                                format!(
                                    "refused with `? {text}`; the standard text is `{standard}`"
                                ),
                            )
                            .with_expected(format!("? {standard}"))
                            .with_actual(shown.clone()),
                        );
                    }
                    self.refused_since_change = Some(p.line.clone());
                }
            }
            Outcome::SizeOffSpec => {
                if !ok && text != notation::ERR_UNACCEPTABLE_SIZE {
                    out.push(
                        self.violation(
                            &rule::ERROR_TEXT,
                            p,
                            format!(
                                "refused with `? {text}`; the standard text is `unacceptable size`"
                            ),
                        )
                        .with_actual(shown.clone()),
                    );
                }
            }
            Outcome::AnyFailure(r) if ok => fail(
                self,
                r,
                "malformed arguments must be refused with `?`".into(),
                "? <any text>",
            ),
            Outcome::AnyFailure(_) => {
                self.refused_since_change = Some(p.line.clone());
            }
            Outcome::FailurePreferred(r) if ok => {
                out.push(
                    r.violation(format!(
                        "`{}` was answered with `=`; it should be refused",
                        p.line
                    ))
                    .with_actual(shown.clone())
                    .with_expected("? ..."),
                );
            }
            Outcome::FailurePreferred(_) => {}
            Outcome::Genmove(c) => self.judge_genmove(p, *c, resp, out),
            Outcome::Winner(want) => {
                match (ok, notation::parse_winner(&text)) {
                    (true, Ok(got)) if got == *want => {}
                    (true, Ok(got)) => {
                        // After clear_board, boardsize or an undo of the
                        // win, `winner.reset` is the specific rule.
                        let r = if want.is_none() && self.win_reset {
                            &rule::WINNER_RESET
                        } else if self.refused_since_change.is_some() {
                            &rule::STATE_FAILED_UNCHANGED
                        } else {
                            &rule::WINNER_ANSWER
                        };
                        let _ = got;
                        fail(
                            self,
                            r,
                            format!("the true answer is `= {}`", notation::format_winner(*want)),
                            &format!("= {}", notation::format_winner(*want)),
                        );
                    }
                    (true, Err(e)) => fail(
                        self,
                        &rule::WINNER_ANSWER,
                        format!(
                            "{e} (the referee compares exactly `true white`, `true black` and `false`)"
                        ),
                        &format!("= {}", notation::format_winner(*want)),
                    ),
                    (false, _) => fail(
                        self,
                        &rule::WINNER_ANSWER,
                        "`winner` never fails".into(),
                        &format!("= {}", notation::format_winner(*want)),
                    ),
                }
                if want.is_some() {
                    self.win_reset = false;
                }
            }
            Outcome::ShowBoard if !ok => fail(
                self,
                &rule::SHOWBOARD_FRAMING,
                "`showboard` must succeed".into(),
                "= <diagram>",
            ),
            Outcome::ShowBoard | Outcome::Anything | Outcome::GtpId => {}
        }
    }

    /// A refused `playwall` by the same colour right before, and this legal
    /// wall is that colour's last: a refused wall that still cost a wall
    /// explains the refusal exactly.
    fn refusal_explains(&self, p: &Pending) -> Option<String> {
        let before = self.refused_since_change.as_ref()?;
        let Some(Command::PlayWall(c, _)) = &p.command else {
            return None;
        };
        let Ok(Command::PlayWall(prev, _)) = notation::parse_command(before) else {
            return None;
        };
        let last_wall = self.board.as_ref().is_some_and(|b| b.walls_left(*c) == 0);
        (prev == *c && last_wall).then(|| before.clone())
    }

    fn judge_genmove(&mut self, p: &Pending, c: Colour, resp: &Response, out: &mut Vec<Violation>) {
        let Some(board) = self.board.as_mut() else {
            return;
        };
        let shown = format!("= {}", resp.first_line());
        if !resp.is_success() {
            let r = if self.last_genmove.is_some_and(|(last, _)| last == c) {
                &rule::GENMOVE_ANY_COLOUR
            } else {
                &rule::GENMOVE_SYNTAX
            };
            out.push(
                r.violation(format!(
                    "`{}` failed with `? {}`: genmove never fails",
                    p.line,
                    resp.text().trim()
                ))
                .with_actual(format!("? {}", resp.text().trim())),
            );
            return;
        }
        let answer = match notation::parse_genmove(resp.text(), board.size()) {
            Ok(a) => a,
            Err(f) => {
                out.push(f.to_violation().with_actual(shown));
                return;
            }
        };
        out.extend(
            answer
                .findings
                .iter()
                .map(|f| f.to_violation().with_actual(shown.clone())),
        );
        match board.play(c, answer.action) {
            Ok(()) => {
                self.last_genmove = Some((c, answer.action));
                self.fresh_setup = false;
                self.refused_since_change = None;
            }
            Err(reason) => {
                let mut legal = Vec::new();
                board.legal_actions(c, &mut legal);
                let sample: Vec<String> = legal.iter().take(12).map(|a| a.to_string()).collect();
                let r = if self.refused_since_change.is_some() {
                    &rule::STATE_FAILED_UNCHANGED
                } else {
                    &rule::GENMOVE_ILLEGAL
                };
                out.push(
                    r.violation(format!(
                        "`{}` answered {}, which is illegal for {}: {reason}",
                        p.line,
                        answer.action,
                        c.as_str()
                    ))
                    .with_actual(shown)
                    .with_expected(format!(
                        "one of {}{}",
                        sample.join(", "),
                        if legal.len() > 12 {
                            format!(" … ({} legal)", legal.len())
                        } else {
                            String::new()
                        }
                    )),
                );
            }
        }
    }

    fn turn(&self) -> Colour {
        self.board
            .as_ref()
            .and_then(|b| b.history().last())
            .map_or(Colour::FIRST, |e| e.colour.opposite())
    }
}

/// What a conforming engine answers to malformed arguments (§7.13, §7.15):
/// any `?`; but an unknown wall orientation only *should* be refused (the
/// reference engine accepts it), and `undo abc`, `undo -1`, `walls -1` are
/// not judged (the reference answers `=`, the document says `?`).
fn malformed_outcome(name: &str, raw: &str) -> Outcome {
    let args: Vec<&str> = raw.split_whitespace().skip(1).collect();
    match name {
        "playwall" if bad_orientation(raw) => {
            Outcome::FailurePreferred(&rule::SYNTAX_BAD_ORIENTATION)
        }
        "undo" => Outcome::Anything,
        "walls" if args.first().is_some_and(|a| a.starts_with('-')) => Outcome::Anything,
        _ => Outcome::AnyFailure(&rule::SYNTAX_MALFORMED),
    }
}

/// Outcomes whose conforming answer is `=`.
fn expects_success(o: &Outcome) -> bool {
    matches!(
        o,
        Outcome::Name
            | Outcome::ListCommands
            | Outcome::Quit
            | Outcome::Accept(_)
            | Outcome::Genmove(_)
            | Outcome::Winner(_)
            | Outcome::ShowBoard
            | Outcome::Known(true)
    )
}

fn bad_orientation(text: &str) -> bool {
    let cleaned = notation::preprocess_command(text).unwrap_or_default();
    let t: Vec<&str> = cleaned.split_whitespace().collect();
    t.len() == 4 && t[0] == "playwall" && notation::parse_orientation(t[3]).is_none()
}

impl Session for QtpSession {
    fn send(&mut self, text: &str) -> Result<Outgoing, ScriptError> {
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
                        notation::action_command(colour, action).to_string()
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
            other => {
                return Err(format!(
                    "`opponent: {other}`: Quoridor takes `auto` (the next generated step), `move` (protocheck plays the colour to move) or `repeat-genmove`"
                ));
            }
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
        let clean = |b: &[u8]| notation::clean_output(&String::from_utf8_lossy(b)).0;
        let line = clean(piece);
        let line = line.trim_end_matches('\n');
        let before = clean(so_far);
        let opened = before
            .lines()
            .any(|l| l.starts_with('=') || l.starts_with('?'));
        let held = before
            .lines()
            .any(|l| !l.trim().is_empty() && !l.starts_with('#'));
        let blank = line.trim().is_empty();
        if !opened {
            return if line.starts_with('=') || line.starts_with('?') {
                Assembly::CompleteUnlessMore(TERMINATOR_GRACE)
            } else if blank && held {
                Assembly::Complete // a block without status: judged as such
            } else {
                Assembly::More
            };
        }
        if blank {
            return Assembly::Complete;
        }
        if !self.head_multiline() && (line.starts_with('=') || line.starts_with('?')) {
            return Assembly::StartsNext;
        }
        Assembly::CompleteUnlessMore(TERMINATOR_GRACE)
    }

    fn judge(
        &mut self,
        reply: &[u8],
        expect: &Expect,
        waited: Duration,
    ) -> Result<Judged, ScriptError> {
        let p = self
            .pending
            .pop_front()
            .ok_or("internal: a response with no command pending")?;
        let mut judged = Judged::default();
        self.answered_any = true;
        // Only a refusal *immediately* before can explain a disagreement.
        let refused_before = self.refused_since_change.take();
        let parsed = match notation::parse_response(reply) {
            Ok(parsed) => parsed,
            Err(finding) => {
                judged.violations.push(
                    self.violation(finding.rule, &p, finding.message)
                        .with_actual(crate::controller::message_text(reply)),
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
                    .with_actual(crate::controller::message_text(reply)),
            );
            self.pending.push_front(p);
            judged.still_due = true;
            return Ok(judged);
        }
        for f in &parsed.findings {
            // `=1 Naive` answers a GTP id the GTP way: no space is owed (§7.6).
            if p.outcome == Outcome::GtpId && f.rule.id == rule::FRAMING_SPACE_AFTER_STATUS.id {
                continue;
            }
            judged.violations.push(
                f.to_violation()
                    .with_actual(crate::controller::message_text(reply)),
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
        self.refused_since_change = refused_before;
        let refusals = self.refused_since_change.clone();
        self.judge_outcome(&p, &parsed.response, &mut judged.violations);
        self.last_undo = match (&p.command, parsed.response.is_success()) {
            (Some(Command::Undo(k)), true) => Some(k.unwrap_or(1)),
            _ => None,
        };
        if self.refused_since_change == refusals {
            // This command was not itself a refusal.
            self.refused_since_change = None;
        }
        let is_genmove = matches!(p.outcome, Outcome::Genmove(_));
        if is_genmove {
            self.genmove_time += waited;
            let limit = Duration::from_secs(20 * u64::from(self.size.unwrap_or(9)));
            if self.genmove_time > limit && !self.game_time_reported {
                self.game_time_reported = true;
                judged.violations.push(rule::TIME_GAME.violation(format!(
                    "genmove took {:.1} s in this game, over the referee's {} s (20·N)",
                    self.genmove_time.as_secs_f64(),
                    limit.as_secs()
                )));
            }
        } else if waited > ACK_LIMIT {
            judged.violations.push(rule::TIME_ACK.violation(format!(
                "`{}` took {:.1} s; the referee stops waiting after 2 s",
                p.line,
                waited.as_secs_f64()
            )));
        }
        // Explicit expectations, unless the automatic judgement already failed.
        if !judged
            .violations
            .iter()
            .any(|v| v.severity == Severity::Fail)
        {
            let ok = parsed.response.is_success();
            match expect {
                Expect::Success if !ok => judged.violations.push(
                    EXPECT_REPLY
                        .violation(format!(
                            "`{}`: the scenario expects a success (`=`)",
                            p.line
                        ))
                        .with_actual(crate::controller::message_text(reply)),
                ),
                Expect::Error(_) if ok => judged.violations.push(
                    EXPECT_REPLY
                        .violation(format!(
                            "`{}`: the scenario expects a failure (`?`)",
                            p.line
                        ))
                        .with_actual(crate::controller::message_text(reply)),
                ),
                Expect::Error(want)
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
        Ok(judged)
    }

    fn unexpected(&mut self, bytes: &[u8]) -> Option<Violation> {
        let (text, _) = notation::clean_output(&String::from_utf8_lossy(bytes));
        let line = text.trim_end_matches('\n');
        let shown = crate::controller::message_text(bytes);
        if line.trim().is_empty() {
            return None; // blank lines between responses are allowed
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
        if self.quit_answered || self.eof {
            return None;
        }
        let mut how = match exit {
            Some(status) => format!("the engine exited ({status}) before `quit`"),
            None => "the engine closed its output before `quit`".to_string(),
        };
        if let Some(p) = partial {
            how.push_str(&format!(
                ", leaving `{}` unterminated",
                crate::controller::message_text(p)
            ));
        }
        // The most specific cause first: what this write probed, then what
        // the unanswered command was about, then the start-up arguments.
        if let Some((r, line)) = &self.last_probe {
            let line = line.replace('\r', "\\r").replace('\n', "\\n");
            return Some(r.violation(format!("{how}, right after protocheck sent `{line}`")));
        }
        if let Some(p) = self.pending.front()
            && let Some(r) = self.blame(p)
        {
            return Some(r.violation(format!("{how}, while `{}` was unanswered", p.line)));
        }
        if !self.answered_any && exit.is_some_and(|e| !e.success()) {
            return Some(rule::PROCESS_SEED_ARG.violation(format!(
                "{how}, before answering its first command; it was started with `-seed 42`, as the referee starts every engine"
            )));
        }
        Some(rule::IO_CRASH.violation(how))
    }

    fn exited_after_end(&self, status: ExitStatus) -> Vec<Violation> {
        if status.success() {
            return Vec::new();
        }
        let r = if self.quit_answered {
            &rule::QUIT_EXIT_STATUS
        } else {
            &rule::PROCESS_EOF
        };
        vec![r.violation(format!("the engine ended with {status}, not status 0"))]
    }

    fn no_exit(&self, grace: Duration) -> Violation {
        let grace = humantime::format_duration(grace);
        if self.quit_answered {
            rule::IO_NO_EXIT.violation(format!(
                "the engine was still running {grace} after answering `quit`"
            ))
        } else {
            rule::PROCESS_EOF.violation(format!(
                "the engine was still running {grace} after its input reached EOF"
            ))
        }
    }

    fn input_closed(&mut self) {
        self.eof = true;
    }

    fn abort(&mut self) -> Vec<Outgoing> {
        Vec::new() // the referee sends nothing more; protocheck kills the engine
    }

    fn is_over(&self) -> bool {
        self.quit_answered || self.eof
    }

    fn board(&self) -> Option<String> {
        let b = self
            .board
            .as_ref()
            .filter(|_| self.walls_set && self.unknown == 0)?;
        Some(format!(
            "{}\n(walls left: black {}, white {}; {} move(s) in the history)",
            b.draw().trim_end(),
            b.walls_left(Colour::Black),
            b.walls_left(Colour::White),
            b.history_len()
        ))
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

    fn assume(&mut self, pinned: Option<&str>) -> Result<Vec<Outgoing>, ScriptError> {
        let Some(p) = self.pending.pop_front() else {
            return Ok(Vec::new());
        };
        if let Outcome::Genmove(c) = p.outcome {
            match pinned.and_then(|t| t.trim().strip_prefix('=').map(str::to_string)) {
                Some(answer) => {
                    let size = self.board()?.size();
                    let a = notation::parse_genmove(&answer, size).map_err(|f| {
                        format!(
                            "the expected answer `{}` is not a move: {}",
                            pinned.unwrap_or(""),
                            f.message
                        )
                    })?;
                    self.board_mut()?.play(c, a.action).map_err(|e| {
                        format!(
                            "the expected answer `{}` is illegal: {e}",
                            pinned.unwrap_or("")
                        )
                    })?;
                    self.last_genmove = Some((c, a.action));
                }
                None => self.unknown += 1,
            }
        }
        if p.outcome == Outcome::Quit {
            self.quit_answered = true;
        }
        Ok(Vec::new())
    }

    fn state_known(&self) -> bool {
        true
    }

    fn last_opponent_step(&self) -> Option<crate::scenario::Step> {
        self.last_own.clone().map(crate::scenario::Step::Send)
    }
}

#[cfg(test)]
mod tests;
