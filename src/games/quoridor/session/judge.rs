//! Judging: how the engine's answers compare with the planned outcomes,
//! and which rule a wrong, missing or fatal answer breaks.

use super::plan::expects_success;
use super::{Pending, QtpSession};
use crate::games::quoridor::catalogue as rule;
use crate::games::quoridor::expect::Outcome;
use crate::games::quoridor::notation::{self, Command, Response};
use crate::games::quoridor::rules::{Action, Colour};
use crate::verdict::{RuleInfo, Severity, Violation};

impl QtpSession {
    /// The rule a missing or fatal answer to `p` breaks, when more specific
    /// than `io.timeout`/`io.crash`: the input feature the line exercises, or
    /// the kind of command (malformed arguments, an off-spec board size).
    /// Only failure ids qualify: a crash or a hang fails even on input whose
    /// misreading is only a warning (leading whitespace, a glued comment).
    pub(super) fn blame(&self, p: &Pending) -> Option<&'static RuleInfo> {
        // A `genmove` is answered by the engine's own search: a crash or a
        // hang while it is due is the search's as likely as the line's, so
        // the input feature of its line is no diagnosis (a `?` to it is).
        let input = p.input.filter(|_| !matches!(p.outcome, Outcome::Genmove(_)));
        p.after_silent_line
            .or(input)
            .or(match p.outcome {
                Outcome::AnyFailure(r) => Some(r),
                Outcome::SizeOffSpec => Some(&rule::BOARDSIZE_OFF_SPEC),
                _ => None,
            })
            .filter(|r| r.severity == Severity::Fail)
    }

    pub(super) fn violation(&self, r: &'static RuleInfo, p: &Pending, msg: String) -> Violation {
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
    pub(super) fn judge_outcome(&mut self, p: &Pending, resp: &Response, out: &mut Vec<Violation>) {
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
                } else if let (Some(_), Some(c)) = (p.input, &p.command) {
                    (
                        *r,
                        format!(
                            "refused, although the line means `{c}`, which is legal in the true position"
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
                    self.refusal = Some(p.line.clone());
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
                self.refusal = Some(p.line.clone());
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
                        } else if self.previous_refusal.is_some() {
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
                    // `e` already says that the referee compares exactly
                    // these strings.
                    (true, Err(e)) => fail(
                        self,
                        &rule::WINNER_ANSWER,
                        e.to_string(),
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
        let before = self.previous_refusal.as_ref()?;
        let Some(Command::PlayWall(c, _)) = &p.command else {
            return None;
        };
        let Ok(Command::PlayWall(prev, _)) = notation::parse_command(before) else {
            return None;
        };
        let last_wall = self.board.as_ref().is_some_and(|b| b.walls_left(*c) == 0);
        (prev == *c && last_wall).then(|| before.clone())
    }

    /// The refused command just before explains an illegal `genmove`
    /// answer only where the transcript shows it: it was a pawn move of the
    /// same colour to another square (a refusal that changed the engine's
    /// state put the pawn there), and the answer is one open step from that
    /// square, as an engine that believes its pawn is there would play.
    /// Otherwise the move is simply illegal.
    fn refusal_explains_genmove(&self, c: Colour, answer: Action) -> Option<String> {
        use crate::games::quoridor::rules::Direction;
        let before = self.previous_refusal.as_ref()?;
        let Ok(Command::PlayMove(refused_colour, to)) = notation::parse_command(before) else {
            return None;
        };
        let (Some(board), Action::Step(cell)) = (self.board.as_ref(), answer) else {
            return None;
        };
        if refused_colour != c || to == board.pawn(c) {
            return None;
        }
        let towards = match (
            i16::from(cell.col) - i16::from(to.col),
            i16::from(cell.row) - i16::from(to.row),
        ) {
            (0, 1) => Direction::North,
            (0, -1) => Direction::South,
            (1, 0) => Direction::East,
            (-1, 0) => Direction::West,
            _ => return None,
        };
        board.edge_open(to, towards).then(|| before.clone())
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
            // A `?` to a line that exercises input handling (`genmove B`)
            // is the probe's question answered wrongly: its rule.
            let r = match p.input {
                Some(input) if input.severity == Severity::Fail => input,
                _ => r,
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
        self.named = Some(answer.action);
        let Some(board) = self.board.as_mut() else {
            return;
        };
        let from = board.pawn(c);
        match board.play(c, answer.action) {
            Ok(()) => {
                if let Action::Step(to) = answer.action {
                    crate::games::quoridor::coverage::stepped(&mut self.situations, from, to);
                }
                self.last_genmove = Some((c, answer.action));
                self.played = Some((c, answer.action));
                self.fresh_setup = false;
            }
            Err(reason) => {
                let mut legal = Vec::new();
                board.legal_actions(c, &mut legal);
                let sample: Vec<String> = legal.iter().take(12).map(|a| a.to_string()).collect();
                let (r, why) = match self.refusal_explains_genmove(c, answer.action) {
                    Some(before) => (
                        &rule::STATE_FAILED_UNCHANGED,
                        format!(
                            "; it is a move from where the refused `{before}` just before would have put the pawn"
                        ),
                    ),
                    None => (&rule::GENMOVE_ILLEGAL, String::new()),
                };
                out.push(
                    r.violation(format!(
                        "`{}` answered {}, which is illegal for {}: {reason}{why}",
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
}
