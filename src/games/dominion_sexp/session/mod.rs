//! protocheck as the dealer (`rules/dominion-sexp.md` §4–§6): the bot takes
//! one seat, built-in players the others. Whole turns: the bot gets
//! `(move state)` before each of its plays and `(moved name play)` for every
//! play of the others; the game ends for it when protocheck closes its
//! input (no game-over message).

mod scripted;
mod board;
pub mod deal;
mod robust;
mod table;

use super::catalogue as rule;
use crate::shared_rules::KeptAreas;
use super::messages::{Notification, Play, classify};
use super::players::BuiltInPlayer;
use super::rules::{DominionTable, Outcome};
use super::sexp::Reader;
use crate::games::dominion::Card;
use crate::games::dominion::coverage;
use crate::games::dominion::seats::Relayed;
use crate::games::{Judged, Next, Outgoing, ScriptError, Scripted, Session};
use crate::scenario_model::{Expect, Step, Token};
use crate::transport::ExitStatus;
use crate::verdict::{RuleInfo, Violation};
use std::cell::Cell;
use std::time::Duration;

pub struct SexpSession {
    game: DominionTable,
    /// The situations reached (the coverage report).
    situations: crate::coverage::Reached,
    /// Generated play: what the run reached before this game.
    aims: Option<crate::coverage::Aims>,
    /// The bot's seat (0-based; seat 0 starts, D15).
    bot: usize,
    /// Built-in player per seat (the bot's entry is unused).
    built_ins: Vec<BuiltInPlayer>,
    /// The strategy the options ask for, if any.
    builtin: Option<BuiltInPlayer>,
    /// Shuffles only (the built-in players' choices use the controller's
    /// random numbers), so a replay with the same seed deals the same cards.
    shuffler: fastrand::Rng,
    /// The seat count the options ask for, if they do.
    asked_players: Option<usize>,
    /// Nothing has been sent yet: a scripted `(move state)` may deal.
    fresh: bool,
    /// A `(move …)` has been sent to the bot and its play not yet read.
    move_due: bool,
    /// protocheck closed the bot's input.
    eof: bool,
    /// A robustness scenario's rule: findings are warnings under it.
    robust: Option<&'static RuleInfo>,
    /// A robustness scenario found a misbehaviour: the game cannot go on.
    tripped: Cell<bool>,
    /// The bot has answered a probed notification with a legal play: it
    /// reads them, so the probe's question got its answer and what follows
    /// is judged under its own rules.
    probe_answered: bool,
    /// Notifications get the extra whitespace of decision D13.
    padded: bool,
    /// False during lint once a bot play is not pinned.
    known: bool,
    last_opponent: Option<String>,
    /// At a match table: the seats other real bots take (`table.rs`).
    relayed: Relayed,
    /// At a match table: the built-in seats' choices, seeded from the table
    /// seed so that every seat's session makes the same ones (a single run
    /// uses the controller's numbers).
    chooser: Option<fastrand::Rng>,
    /// The play the bot's last judged reply made, if it was legal.
    played: Option<Play>,
}

/// The built-in player of each seat: the options' strategy, or else big
/// money and random legal in turn from the seat after the bot's.
fn built_in_players(
    players: usize,
    bot: usize,
    builtin: Option<BuiltInPlayer>,
) -> Vec<BuiltInPlayer> {
    (0..players)
        .map(|s| {
            let after_bot = (s + players - bot) % players;
            builtin.unwrap_or(if after_bot % 2 == 1 {
                BuiltInPlayer::BigMoney
            } else {
                BuiltInPlayer::RandomLegal
            })
        })
        .collect()
}

impl SexpSession {
    pub fn new(
        players: usize,
        bot: usize,
        seed: u64,
        builtin: Option<BuiltInPlayer>,
    ) -> SexpSession {
        let mut shuffler = fastrand::Rng::with_seed(seed);
        let game = deal::fresh(players, &mut shuffler);
        let built_ins = built_in_players(players, bot, builtin);
        SexpSession {
            game,
            situations: crate::coverage::Reached::new(),
            aims: None,
            bot,
            built_ins,
            builtin,
            shuffler,
            asked_players: None,
            fresh: true,
            move_due: false,
            eof: false,
            robust: None,
            tripped: Cell::new(false),
            probe_answered: false,
            padded: false,
            known: true,
            last_opponent: None,
            relayed: Relayed::default(),
            chooser: None,
            played: None,
        }
    }

    pub fn with_asked_players(mut self, asked: Option<usize>) -> Self {
        self.asked_players = asked;
        self
    }

    fn game_over(&self) -> bool {
        self.game.ended.is_some()
    }

    fn bot_name(&self) -> &str {
        &self.game.players[self.bot].name
    }

    fn text(&self, n: &Notification) -> String {
        let canonical = n.to_string();
        if self.padded {
            deal::pad(&canonical)
        } else {
            canonical
        }
    }

    /// The `(move state)` the bot is due now.
    fn bot_move(&mut self) -> Outgoing {
        self.fresh = false;
        self.move_due = true;
        Outgoing::asking(self.text(&Notification::Move(self.game.snapshot())))
    }

    fn legal_list(&self) -> String {
        let plays: Vec<String> = self
            .game
            .legal_plays()
            .iter()
            .map(Play::to_string)
            .collect();
        plays.join(" | ")
    }

    /// Apply a built-in seat's play; what the bot is told about it.
    fn builtin_play(&mut self, play: Play) -> Result<Outgoing, ScriptError> {
        let seat = self.game.current;
        let name = self.game.players[seat].name.clone();
        self.game.apply(play, &mut self.shuffler).map_err(|e| {
            format!(
                "{name} cannot play {play} here: {} ({})",
                e.detail, e.rule.id
            )
        })?;
        self.fresh = false;
        Ok(Outgoing::silent(
            self.text(&Notification::Moved { name, play }),
        ))
    }

    fn check_builtin_turn(&self) -> Result<(), ScriptError> {
        if self.game_over() {
            return Err("the game is over: nobody plays any more".into());
        }
        if self.game.current == self.bot {
            return Err(format!(
                "it is the bot's turn ({}), not a built-in player's",
                self.bot_name()
            ).into());
        }
        Ok(())
    }

    /// Judge one read play of the bot and apply it.
    fn judge_play(&mut self, reply: &[u8]) -> Judged {
        let mut judged = Judged::default();
        let shown = crate::shown::message_text(reply);
        let mut reader = Reader::new();
        let (_, outcome) = reader.feed(reply);
        let read = match outcome.or_else(|| reader.finish()) {
            Some(Ok(r)) => r,
            Some(Err(e)) => {
                judged.violations.push(
                    self.finding(e.rule(), format!("`{shown}` cannot be read: {e}"))
                        .with_actual(shown)
                        .with_expected(self.legal_list()),
                );
                return judged;
            }
            None => {
                judged.violations.push(
                    self.finding(&rule::GRAMMAR_NOT_A_PLAY, "the reply holds no datum".into())
                        .with_expected(self.legal_list()),
                );
                return judged;
            }
        };
        if let Some(n) = read.nonstandard {
            judged.violations.push(
                rule::FRAME_NONSTANDARD_SYNTAX
                    .violation(format!(
                        "`{shown}` uses {}, which the reference's reader accepts but the document's grammar does not (it is read as `{}`)",
                        n.describe(),
                        read.datum
                    ))
                    .with_actual(shown.clone()),
            );
        }
        let play = match classify(&read.datum) {
            Ok(p) => p,
            Err(g) => {
                judged.violations.push(
                    g.rule
                        .violation(format!("`{shown}`: {}", g.detail))
                        .with_actual(shown)
                        .with_expected(self.legal_list()),
                );
                return judged;
            }
        };
        let expected = self.legal_list();
        match self.game.apply(play, &mut self.shuffler) {
            Err(e) => {
                judged.violations.push(
                    e.rule
                        .violation(format!("{play} is illegal here: {}", e.detail))
                        .with_actual(shown)
                        .with_expected(expected),
                );
            }
            Ok(outcome) => {
                self.probe_answered |= self.robust.is_some();
                self.played = Some(play);
                // The areas each kind of play is judged by, all of them
                // kept when no finding is made about it (the coverage report).
                static MINE: KeptAreas = KeptAreas::new(&rule::CATALOGUE, &["frame", "grammar", "mine"]);
                static ADD: KeptAreas = KeptAreas::new(&rule::CATALOGUE, &["frame", "grammar", "add"]);
                static BUY: KeptAreas = KeptAreas::new(&rule::CATALOGUE, &["frame", "grammar", "buy"]);
                static CLEAN: KeptAreas = KeptAreas::new(&rule::CATALOGUE, &["frame", "grammar", "clean"]);
                let kept = match play {
                    Play::Mine { .. } => {
                        coverage::card_played(&mut self.situations, Card::Mine);
                        &MINE
                    }
                    Play::Add(_) => &ADD,
                    Play::Buy(_) => &BUY,
                    Play::Clean(_) => &CLEAN,
                };
                if judged.violations.is_empty() {
                    judged.passed_areas = kept.sets().to_vec();
                }
                if outcome == Outcome::Continue {
                    judged.follow_ups.push(self.bot_move());
                }
            }
        }
        judged
    }

    /// Plays written in an `opponent:` step, one S-expression each.
    fn scripted_plays(choice: &str) -> Result<Vec<Play>, ScriptError> {
        let mut plays = Vec::new();
        let mut rest = choice.as_bytes();
        let mut reader = Reader::new();
        loop {
            let (used, outcome) = reader.feed(rest);
            rest = &rest[used..];
            let read = match outcome.or_else(|| {
                if rest.is_empty() {
                    reader.finish()
                } else {
                    None
                }
            }) {
                Some(Ok(r)) => r,
                Some(Err(e)) => return Err(format!("`opponent: {choice}`: {e}").into()),
                None if rest.is_empty() => break,
                None => continue,
            };
            let play = classify(&read.datum)
                .map_err(|g| format!("`opponent: {choice}`: {} ({})", g.detail, g.rule.id))?;
            plays.push(play);
        }
        if plays.is_empty() {
            return Err(format!(
                "`opponent: {choice}`: expected `auto` or plays such as `(add copper) (buy silver) (clean estate)`"
            ).into());
        }
        Ok(plays)
    }

    fn scripted_move(
        &mut self,
        text: &str,
        state: &super::messages::State,
    ) -> Result<Outgoing, ScriptError> {
        if self.fresh {
            let (game, reference_names) =
                deal::adopt(state, self.asked_players, self.bot, &mut self.shuffler)?;
            if game.players.len() != self.built_ins.len() {
                self.built_ins = built_in_players(game.players.len(), self.bot, self.builtin);
            }
            self.game = game;
            if reference_names {
                self.robust = Some(&rule::ROBUST_REFERENCE_NAMES);
            }
        } else {
            if self.game_over() {
                return Err("the game is over: no (move …) may follow".into());
            }
            if self.game.current != self.bot {
                return Err(format!(
                    "it is {}'s turn, a built-in player's: the bot gets (move …) only on its own turn",
                    self.game.current_name()
                ).into());
            }
            if self.move_due {
                return Err("the bot owes a play for the (move …) already sent: protocheck sends the next one itself".into());
            }
            let want = Notification::Move(self.game.snapshot()).to_string();
            if *state != self.game.snapshot() {
                return Err(format!(
                    "this (move …) does not follow from the game so far: the state is `{want}`"
                ).into());
            }
        }
        let canonical = Notification::Move(self.game.snapshot()).to_string();
        if canonical != text {
            self.padded = true;
            self.robust.get_or_insert(&rule::ROBUST_EXTRA_WHITESPACE);
        }
        self.fresh = false;
        self.move_due = true;
        Ok(Outgoing::asking(text))
    }
}

impl Session for SexpSession {
    // `abort` and `finish` keep their defaults: no abort message (the
    // controller closes the bot's input, §6), no stderr checks. Any exit
    // status once stdin is closed (D12: the reference players exit 1 at
    // EOF) is `GameFacts::exit`'s.
    fn send(&mut self, text: &str) -> Result<Outgoing, ScriptError> {
        let n = Notification::parse(text).map_err(|e| format!("not a notification: {e}"))?;
        if !self.known {
            let replies = usize::from(matches!(n, Notification::Move(_)));
            return Ok(Outgoing {
                text: text.to_string(),
                replies,
            });
        }
        match &n {
            Notification::Move(state) => self.scripted_move(text, state),
            Notification::Moved { name, play } => {
                self.check_builtin_turn()?;
                if self.move_due {
                    return Err("the bot owes a play: no (moved …) before it".into());
                }
                if *name != self.game.current_name() {
                    return Err(format!(
                        "it is {}'s turn, not {name}'s",
                        self.game.current_name()
                    ).into());
                }
                let mut out = self.builtin_play(*play)?;
                if !deal::same_tokens(text, &out.text) {
                    return Err(format!("write the play canonically: `{}`", out.text).into());
                }
                if text != out.text {
                    self.padded = true;
                    self.robust.get_or_insert(&rule::ROBUST_EXTRA_WHITESPACE);
                }
                out.text = text.to_string();
                self.last_opponent = None;
                Ok(out)
            }
        }
    }

    fn opponent(
        &mut self,
        choice: &str,
        rng: &mut fastrand::Rng,
    ) -> Result<Vec<Outgoing>, ScriptError> {
        if !self.known {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let choice = choice.trim();
        if self.relay_due() {
            return self.relayed_play(choice).map(|o| vec![o]);
        }
        if choice == "auto" {
            if self.game_over() {
                return Err("the game is over: nobody plays any more".into());
            }
            if self.game.current == self.bot {
                if self.move_due {
                    return Err("it is the bot's turn and its play is due".into());
                }
                self.last_opponent = Some("auto".into());
                out.push(self.bot_move());
                return Ok(out);
            }
            // The built-in seats play whole turns until the bot's comes (or,
            // at a match table, another real bot's); its `(move …)` is dealt
            // by the next step, after a pause in which an answer to these
            // `(moved …)` lines shows as out of turn.
            let mut played = Vec::new();
            while self.game.current != self.bot
                && !self.relayed.at(self.game.current)
                && !self.game_over()
            {
                let player = self.built_ins[self.game.current];
                let rng = self.chooser.as_mut().unwrap_or(&mut *rng);
                let usual = player.choose(&self.game, rng);
                let play = self.aimed(usual);
                out.push(self.builtin_play(play)?);
                played.push(play.to_string());
            }
            self.last_opponent = Some(played.join(" "));
        } else {
            let plays = Self::scripted_plays(choice)?;
            let mut played = Vec::new();
            for play in plays {
                self.check_builtin_turn()?;
                out.push(self.builtin_play(play)?);
                played.push(play.to_string());
            }
            self.last_opponent = Some(played.join(" "));
        }
        Ok(out)
    }

    fn next(&self) -> Next {
        if self.is_over() {
            Next::Finished
        } else if self.move_due {
            Next::Bot
        } else {
            Next::Opponent
        }
    }

    fn silence_matters(&self) -> bool {
        // Before the bot's first two `(move …)` after `(moved …)` lines: a
        // bot that answers them, or misreads the modes, writes then. Later
        // pauses follow the bot's pace.
        self.game.current == self.bot && !self.move_due && self.game.players[self.bot].turns <= 1
    }

    fn judge(
        &mut self,
        reply: &[u8],
        _expect: &Expect,
        _waited: Duration,
    ) -> Result<Judged, ScriptError> {
        if !self.move_due {
            return Err("internal: a play was judged while none was due".into());
        }
        self.move_due = false;
        self.played = None;
        Ok(self.judge_play(reply))
    }

    fn unexpected(&mut self, bytes: &[u8]) -> Option<Violation> {
        if self.eof {
            // §1.3: what the bot writes after its input was closed is not
            // judged.
            return None;
        }
        let shown = crate::shown::message_text(bytes);
        let when = if self.fresh {
            "before the game started (nothing is due before the first (move …))".to_string()
        } else if self.move_due {
            "after its play was read and before its next (move …): one play per (move …)"
                .to_string()
        } else if self.game.current == self.bot && !self.game_over() {
            "after the (moved …) lines of the other players, before its own (move …): a player in wait mode writes nothing, not even an answer to (moved …)".to_string()
        } else {
            format!(
                "while waiting ({}'s turn): a player in wait mode writes nothing, not even an answer to (moved …)",
                self.game.current_name()
            )
        };
        Some(
            self.finding(
                &rule::IO_UNEXPECTED_OUTPUT,
                format!("the bot wrote `{shown}` {when}"),
            )
            .with_actual(shown)
            .with_expected("(nothing)"),
        )
    }

    fn timed_out(&self, limit: Duration) -> Violation {
        let limit = humantime::format_duration(limit);
        self.finding(
            &rule::IO_TIMEOUT,
            format!("no complete play within {limit} of (move …) (is stdout flushed after each play? is every parenthesis closed?)"),
        )
        .with_expected(self.legal_list())
    }

    fn late_reply(&self, timed_out: &Violation, reply: &[u8]) -> Option<Violation> {
        self.late_answer_to_probe(timed_out, reply)
    }

    fn closed(&self, exit: Option<ExitStatus>, partial: Option<&[u8]>) -> Option<Violation> {
        // After the end (or a robustness finding that ended the game) the
        // bot may leave.
        if self.is_over() {
            return None;
        }
        let mut how = match exit {
            Some(status) => format!("the bot exited ({status}) before the game was over"),
            None => "the bot closed its output or input before the game was over".to_string(),
        };
        if let Some(p) = partial {
            how.push_str(&format!(
                ", leaving `{}` unfinished",
                crate::shown::message_text(p)
            ));
        }
        Some(self.finding(&rule::IO_CRASH, how))
    }

    fn exit_state(&self) -> crate::games::ExitState {
        crate::games::ExitState {
            told_end: false,
            over: self.is_over(),
            input_closed: self.eof,
        }
    }

    fn input_closed(&mut self) {
        self.eof = true;
    }

    fn is_over(&self) -> bool {
        self.game_over() || self.eof || self.tripped.get()
    }

    fn relay(&self) -> Option<&dyn crate::games::Relay> {
        Some(self)
    }

    fn ending(&self) -> Option<crate::games::Ending> {
        crate::games::dominion::seats::ending(&self.game, self.bot)
    }

    fn aim(&mut self, aims: crate::coverage::Aims) {
        self.aims = Some(aims);
    }

    fn reached(&self) -> Vec<(&'static str, u64)> {
        coverage::reached(&self.situations, &self.game, self.bot)
    }
}

#[cfg(test)]
mod tests;

impl SexpSession {
    /// Generated play aiming at what is missing (`coverage::Aims`): a
    /// built-in seat that may buy the last province buys it while the run
    /// has no game ended on provinces; otherwise its usual play.
    fn aimed(&self, usual: Play) -> Play {
        let buy = Play::Buy(Card::Province);
        match &self.aims {
            Some(aims) if self.game.check(buy).is_ok() => aims
                .choose(
                    &self.situations,
                    [(buy, coverage::province_buy_reaches(&self.game))],
                )
                .unwrap_or(usual),
            _ => usual,
        }
    }
}
