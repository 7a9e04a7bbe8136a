//! Planning: what a conforming engine must answer to each command line,
//! worked out against the true state (which planning also advances).

use super::QtpSession;
use crate::games::ScriptError;
use crate::games::quoridor::catalogue as rule;
use crate::games::quoridor::expect::{self, Outcome};
use crate::games::quoridor::notation::{self, Command, CommandError};
use crate::games::quoridor::rules::{self, Action, Board, Colour};
use crate::verdict::RuleInfo;

/// A command sent and not yet answered.
#[derive(Clone, Debug)]
pub(super) struct Pending {
    /// As sent (without LF), for messages.
    pub(super) line: String,
    pub(super) command: Option<Command>,
    pub(super) outcome: Outcome,
    /// The input-handling rule this line exercises, if any.
    pub(super) input: Option<&'static RuleInfo>,
    /// A whitespace-only line came before it in the same write: a `?` that
    /// comes first is tolerated as that line's answer (§7.7).
    pub(super) after_whitespace_line: bool,
    /// Lines without response (empty, comment) came before it.
    pub(super) after_silent_line: Option<&'static RuleInfo>,
}

impl QtpSession {
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
                if rules::validate_size(u8::try_from(*n).unwrap_or(0)).is_ok() {
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
                // A new game: the referee's 20·N s of genmove time start again.
                self.game_clock = Default::default();
                self.board = Some(Board::new(size, 0).map_err(|e| e.to_string())?);
                self.walls_set = false;
                self.win_reset = true;
                self.fresh_setup = true;
                self.refusal = None;
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
                    return Err("play after a win is not specified by QTP: protocheck does not test it (docs/games/quoridor.md, decision 16)".into());
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
            return Err("play after a win is not specified by QTP: protocheck does not test it (docs/games/quoridor.md, decision 16)".into());
        }
        let from = b.pawn(c);
        Ok(match b.play(c, a) {
            Ok(()) => {
                if let Action::Step(to) = a {
                    crate::games::quoridor::coverage::stepped(&mut self.situations, from, to);
                }
                Outcome::Accept(expect::acceptance(a))
            }
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
    pub(super) fn plan_block(&mut self, text: &str) -> Result<Vec<Pending>, ScriptError> {
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
                    // (A crash while a `genmove` is due is its search's as
                    // likely as its line's: `blame`.)
                    if !matches!(p.outcome, Outcome::Genmove(_)) {
                        probe = probe.or(p.input);
                    }
                    planned.push(p);
                }
            }
        }
        self.last_probe = probe.map(|r| (r, text.to_string()));
        Ok(planned)
    }
}

/// What a conforming engine answers to malformed arguments (§7.13, §7.15):
/// any `?`; but an unknown wall orientation only *should* be refused (the
/// reference engine accepts it), and `undo abc`, `undo -1`, `walls -1` are
/// not judged (the reference answers `=`, the document says `?`).
fn malformed_outcome(name: &str, raw: &str) -> Outcome {
    let args: Vec<&str> = raw.split_whitespace().skip(1).collect();
    match name {
        // `known_command` "never fails" (§2.3), so without a name `= false`
        // is as right as the reference engine's `? false` (§9.1 #11): any
        // one well-framed response.
        "known_command" => Outcome::Anything,
        "playwall" if bad_orientation(raw) => {
            Outcome::FailurePreferred(&rule::SYNTAX_BAD_ORIENTATION)
        }
        "undo" => Outcome::Anything,
        "walls" if args.first().is_some_and(|a| a.starts_with('-')) => Outcome::Anything,
        _ => Outcome::AnyFailure(&rule::SYNTAX_MALFORMED),
    }
}

/// Outcomes whose conforming answer is `=`.
pub(super) fn expects_success(o: &Outcome) -> bool {
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
