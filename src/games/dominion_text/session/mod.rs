//! protocheck as the dominion-text server (`rules/dominion-text.md` §4–§6):
//! the bot takes one seat, built-in players ([`crate::games::dominion_text::players`])
//! the others. The flow of messages is in [`flow`]; scripted messages and
//! the `opponent:` language of scenarios (built-in plays and injected
//! states) in [`script`]; this file judges the bot's lines.
//!
//! Attribution is by arrival (§1.3): a line read while a request is due is
//! its reply; a blank line never is one (`frame.blank-line`, still due);
//! anything else is `io.unexpected-output` and discarded. Bad replies are
//! recovered from as the document says and the game goes on
//! (`Game::failure_ends_game`); it stops on the `io.*` failures and a
//! failed version echo. The game ends by closing the bot's input.

mod scripted;
mod flow;
mod script;
mod table;
#[cfg(test)]
mod tests;

use super::catalogue as cat;
use crate::shared_rules::KeptAreas;
use super::grammar::{Outcome, Reply, Request, judge_reply, judge_unexpected};
use super::players::{BuiltInPlayer, TurnPlay};
use crate::games::dominion::Card;
use crate::games::dominion::coverage;
use crate::games::dominion::seats::Relayed;
use crate::games::dominion::kingdom::{AttackReply, DominionTable, Rule};
use crate::games::{Drawn, Judged, Next, Outgoing, ScriptError, Scripted, Session};
use crate::scenario_model::{Expect, Step, Token};
use crate::transport::ExitStatus;
use crate::verdict::{RuleInfo, Violation};
use std::collections::VecDeque;
use std::time::Duration;

// The areas each kind of reply is judged by, all of them kept when no
// finding is made about it (the coverage report).
static HANDSHAKE_KEPT: KeptAreas = KeptAreas::new(&cat::CATALOGUE, &["frame", "handshake"]);
static BUY_KEPT: KeptAreas = KeptAreas::new(&cat::CATALOGUE, &["frame", "grammar", "buy"]);
static ACTION_KEPT: KeptAreas = KeptAreas::new(&cat::CATALOGUE, &["frame", "grammar", "action"]);
static REPLY_KEPT: KeptAreas = KeptAreas::new(&cat::CATALOGUE, &["frame", "grammar"]);

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// The handshake, at this seat (0-based).
    Handshake(usize),
    Turns,
}

/// The reply the bot owes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Due {
    Name,
    Version,
    PlayTurn,
    Attack,
}

#[derive(Clone)]
pub struct TextSession {
    pub(super) game: DominionTable,
    /// The situations reached (the coverage report).
    situations: crate::coverage::Reached,
    /// Generated play: what the run reached before this game.
    aims: Option<crate::coverage::Aims>,
    /// The bot's seat (0-based; seat 0 starts, D1).
    pub(super) bot: usize,
    /// Built-in player per seat (the bot's entry is unused).
    pub(super) built_ins: Vec<BuiltInPlayer>,
    /// Shuffles and militia's random discards: seeded, so a replay deals
    /// the same cards.
    pub(super) shuffler: fastrand::Rng,
    /// The built-in seats' choices, seeded from the same seed (not the
    /// controller's numbers, which differ between a run and `lint`), so that
    /// lint follows the game a run plays.
    pub(super) chooser: fastrand::Rng,
    pub(super) stage: Stage,
    pub(super) due: Option<Due>,
    /// Seats militia has still to handle, in order.
    pub(super) attacks: VecDeque<usize>,
    /// The current seat has acted (or been sent its request) this turn.
    pub(super) turn_started: bool,
    /// Lines worked out for scripted `send:` steps and not yet sent.
    pub(super) planned: VecDeque<Outgoing>,
    /// The name the bot goes by (§4.1, D24).
    pub(super) bot_name: Option<String>,
    /// protocheck closed the bot's input.
    eof: bool,
    /// The version echo failed: the game stops (§4.1).
    stopped: bool,
    /// A scripted `supply` was sent while the bot waits: until its next
    /// request, its output is judged under `robust.supply-while-waiting`.
    pub(super) robust: bool,
    /// False during lint once a bot reply that changes the state is not pinned.
    pub(super) known: bool,
    pub(super) last_opponent: Option<String>,
    /// At a match table: the seats other real bots take (`table.rs`).
    pub(super) relayed: Relayed,
    /// What the bot's last judged reply did, in the relay's notation.
    pub(super) played: Option<String>,
}

/// The built-in player of each seat: the options' strategy, or else militia
/// and engine in turn from the seat after the bot's, so that the seat right
/// before the bot's (the one whose militia meets a full hand) is often a
/// militia player.
fn built_in_players(
    players: usize,
    bot: usize,
    builtin: Option<BuiltInPlayer>,
) -> Vec<BuiltInPlayer> {
    (0..players)
        .map(|s| {
            let before_bot = (bot + players - s) % players;
            builtin.unwrap_or(if before_bot % 2 == 1 {
                BuiltInPlayer::Militia
            } else {
                BuiltInPlayer::Engine
            })
        })
        .collect()
}

impl TextSession {
    pub fn new(
        players: usize,
        bot: usize,
        seed: u64,
        builtin: Option<BuiltInPlayer>,
    ) -> TextSession {
        let mut shuffler = fastrand::Rng::with_seed(seed);
        let game = DominionTable::line(players, &mut shuffler);
        TextSession {
            game,
            situations: crate::coverage::Reached::new(),
            aims: None,
            bot,
            built_ins: built_in_players(players, bot, builtin),
            shuffler,
            chooser: fastrand::Rng::with_seed(seed ^ 0x9e37_79b9_7f4a_7c15),
            stage: Stage::Handshake(0),
            due: None,
            attacks: VecDeque::new(),
            turn_started: false,
            planned: VecDeque::new(),
            bot_name: None,
            eof: false,
            stopped: false,
            robust: false,
            known: true,
            last_opponent: None,
            relayed: Relayed::default(),
            played: None,
        }
    }

    fn bot_seat(&self) -> String {
        flow::seat(self.bot).to_string()
    }

    fn rule_info(rule: Rule) -> &'static RuleInfo {
        cat::CATALOGUE
            .by_id(rule.id())
            .expect("every engine rule is in the catalogue")
    }

    /// Why the engine's rule fired, in the terms of the tracked state.
    fn rule_message(&self, rule: Rule, reply: &str, hand: &[Card]) -> String {
        let hand: Vec<&str> = hand.iter().map(|c| c.name()).collect();
        let what = match rule {
            Rule::ActionNoActions => "no action is left; the turn ends without a buy",
            Rule::ActionNotActionCard => "the card is not an action card; one action is consumed",
            Rule::ActionNotInHand => "the card is not in hand; one action is consumed",
            Rule::CellarNoValidCards => {
                "the first card of the list is not in hand; the cellar and the action are consumed"
            }
            Rule::CellarCardNotInHand => {
                "only the cards up to the first one not in hand are discarded"
            }
            Rule::BuyEmpty => "an empty buy is a pass",
            Rule::BuyMoreThanBuys => "no buy is left for the next card; buying stops",
            Rule::BuyUnaffordable => "the money left does not cover the next card; buying stops",
            Rule::BuyPileEmpty => "the next card's pile is empty; buying stops",
            Rule::AttackWrongCount | Rule::AttackNotInHand | Rule::AttackMoatNotInHand => {
                "protocheck discards cards chosen at random instead"
            }
            _ => "the card is consumed without effect; one action is spent",
        };
        format!("`{reply}` with hand [{}]: {what}", hand.join(" "))
    }

    /// A finding about one of the bot's lines.
    fn finding(&self, rule: &'static RuleInfo, detail: String, shown: &str) -> Violation {
        rule.violation(detail).with_actual(shown.to_string())
    }

    /// Judges one line that arrived while a reply was due, and applies it.
    fn judge_line(&mut self, reply: &[u8]) -> Judged {
        let mut judged = Judged::default();
        let shown = crate::shown::message_text(reply);
        let Some(due) = self.due else {
            return judged;
        };
        // Findings show the state the line was judged in, not the state
        // after its recovery (a consumed card, a random discard).
        let judged_in = self.board();
        self.judge_due_line(due, reply, &shown, &mut judged);
        for v in &mut judged.violations {
            if v.board.is_none() {
                v.board = judged_in.clone();
            }
        }
        judged
    }

    /// [`Self::judge_line`] for the reply due to `due`.
    fn judge_due_line(&mut self, due: Due, reply: &[u8], shown: &str, judged: &mut Judged) {
        let request = match due {
            Due::Name => Request::Name(flow::seat(self.bot)),
            Due::Version => Request::Version(flow::seat(self.bot)),
            Due::PlayTurn => Request::PlayTurn,
            Due::Attack => Request::Attack,
        };
        let judgement = judge_reply(request, reply);
        self.played = table::notation(&judgement, due);
        // The areas a reply of this kind is judged by, all of them kept
        // when no finding is made about it (the coverage report).
        // An answer to a militia kept the attack rules its kind is held to.
        let attack_kept: &[&RuleInfo] = match (&judgement.outcome, due) {
            (Outcome::Reply(Reply::Discard(_)), Due::Attack) => {
                &[&cat::ATTACK_WRONG_COUNT, &cat::ATTACK_NOT_IN_HAND]
            }
            (Outcome::Reply(Reply::ReactionMoat), Due::Attack) => &[&cat::ATTACK_MOAT_NOT_IN_HAND],
            _ => &[],
        };
        let (kept_areas, card_area): (&'static KeptAreas, Option<String>) =
            match (&judgement.outcome, due) {
                (_, Due::Name | Due::Version) => (&HANDSHAKE_KEPT, None),
                (Outcome::Reply(Reply::Buy(_)), _) => (&BUY_KEPT, None),
                (Outcome::Reply(Reply::Action { card, .. }), _) => {
                    (&ACTION_KEPT, Some(card.name().to_ascii_lowercase()))
                }
                _ => (&REPLY_KEPT, None),
            };
        for f in &judgement.findings {
            judged
                .violations
                .push(self.finding(f.rule, f.detail.clone(), shown));
        }
        let out = &mut judged.follow_ups;
        match (judgement.outcome, due) {
            (Outcome::Ignored, _) => {
                judged.still_due = true;
            }
            (_, _)
                if judgement
                    .findings
                    .iter()
                    .any(|f| f.rule.id == cat::IO_INVALID_UTF8.id) =>
            {
                self.due = None;
                self.stopped = true;
            }
            (Outcome::Reply(Reply::Name(name)), Due::Name) => {
                self.bot_name = Some(name);
                out.push(flow::line(super::grammar::ServerMessage::VersionRequest(
                    flow::seat(self.bot),
                )));
                self.due = Some(Due::Version);
            }
            (Outcome::Reply(Reply::Version), Due::Version) => {
                self.due = None;
                self.stage = Stage::Handshake(self.bot + 1);
                self.handshake(out);
            }
            (_, Due::Name | Due::Version) => {
                // A failed version echo: the server exits (§4.1).
                self.due = None;
                self.stopped = true;
            }
            (outcome, Due::PlayTurn) => {
                self.due = None;
                let hand = self.game.hand().to_vec();
                let goes_on = match outcome {
                    Outcome::Reply(Reply::Pass) => self.apply_play(&TurnPlay::Pass, out).1,
                    Outcome::Reply(Reply::Buy(cards)) => {
                        let (rule, _) = self.apply_play(&TurnPlay::Buy(cards), out);
                        if let Some(rule) = rule {
                            judged.violations.push(self.finding(
                                Self::rule_info(rule),
                                self.rule_message(rule, shown, &hand),
                                shown,
                            ));
                        }
                        false
                    }
                    Outcome::Reply(Reply::Action { card, args }) => {
                        let (rule, goes_on) = self.apply_play(&TurnPlay::Action(card, args), out);
                        if rule.is_none() {
                            coverage::card_played(&mut self.situations, card);
                        }
                        if let Some(rule) = rule {
                            judged.violations.push(self.finding(
                                Self::rule_info(rule),
                                self.rule_message(rule, shown, &hand),
                                shown,
                            ));
                        }
                        goes_on
                    }
                    _ => self.malformed_turn_reply(out),
                };
                if goes_on {
                    // The bot's militia: the built-in seats answer at once,
                    // a relayed seat's answer comes later (`table.rs`).
                    let stopped = self.resolve_attacks(out);
                    if !stopped && self.due.is_none() {
                        out.push(flow::line(self.play_turn()));
                        self.due = Some(Due::PlayTurn);
                    }
                }
            }
            (outcome, Due::Attack) => {
                self.due = None;
                let hand = self.game.players[self.bot].hand.clone();
                let result = match &outcome {
                    Outcome::Reply(Reply::Discard(cards)) => self.game.resolve_attack(
                        self.bot,
                        Some(AttackReply::Discard(cards)),
                        &mut self.shuffler,
                    ),
                    Outcome::Reply(Reply::ReactionMoat) => self.game.resolve_attack(
                        self.bot,
                        Some(AttackReply::RevealMoat),
                        &mut self.shuffler,
                    ),
                    _ => self.game.resolve_attack(self.bot, None, &mut self.shuffler),
                };
                if result.rule.is_none() {
                    match &outcome {
                        Outcome::Reply(Reply::Discard(_)) => {
                            self.situations.hit(&coverage::ATTACKED_DISCARD)
                        }
                        Outcome::Reply(Reply::ReactionMoat) => {
                            self.situations.hit(&coverage::ATTACKED_MOAT)
                        }
                        _ => {}
                    }
                }
                if let Some(rule) = result.rule {
                    judged.violations.push(self.finding(
                        Self::rule_info(rule),
                        self.rule_message(rule, shown, &hand),
                        shown,
                    ));
                }
                self.attack_lines(self.bot, result.revealed_moat, result.discarded, out);
            }
        }
        if judged.violations.is_empty() && !judged.still_due {
            judged.passed_areas = kept_areas.sets().to_vec();
            if let Some(card) = card_area {
                judged.passed_areas.push(cat::CATALOGUE.area(&card));
            }
            judged.passed = attack_kept.iter().map(|r| r.id).collect();
        }
    }

    fn due_word(&self) -> &'static str {
        match self.due {
            Some(Due::Name) => "the name request",
            Some(Due::Version) => "the version request",
            Some(Due::PlayTurn) => "the play-turn request",
            Some(Due::Attack) => "the attack request",
            None => "no request",
        }
    }
}

impl Session for TextSession {
    // `abort` and `finish` keep their defaults: no abort message (the
    // controller closes the bot's input), no stderr checks. Any exit status
    // once stdin is closed (§5) is `GameFacts::exit`'s.
    fn send(&mut self, text: &str) -> Result<Outgoing, ScriptError> {
        self.scripted_send(text)
    }

    fn opponent(
        &mut self,
        choice: &str,
        _rng: &mut fastrand::Rng,
    ) -> Result<Vec<Outgoing>, ScriptError> {
        if !self.known {
            return Ok(Vec::new());
        }
        let mut chooser = self.chooser.clone();
        let out = if self.relay_due() {
            self.relayed_play(choice, &mut chooser)
        } else {
            self.scripted_opponent(choice, &mut chooser)
        };
        self.chooser = chooser;
        out
    }

    fn next(&self) -> Next {
        if self.is_over() {
            Next::Finished
        } else if self.due.is_some() && self.planned.is_empty() {
            Next::Bot
        } else {
            Next::Opponent
        }
    }

    fn silence_matters(&self) -> bool {
        // Before the bot's first turns, after the handshake and the first
        // info lines: a bot that answers them does it then. Later pauses
        // follow the bot's pace.
        self.stage == Stage::Turns && self.game.players[self.bot].turns <= 1
    }

    fn judge(
        &mut self,
        reply: &[u8],
        _expect: &Expect,
        _waited: Duration,
    ) -> Result<Judged, ScriptError> {
        if self.due.is_none() {
            return Err("internal: a reply was judged while none was due".into());
        }
        self.robust = false;
        self.played = None;
        Ok(self.judge_line(reply))
    }

    fn unexpected(&mut self, bytes: &[u8]) -> Option<Violation> {
        if self.eof {
            // §1.3: lines after protocheck closed stdin are not judged.
            return None;
        }
        let shown = crate::shown::message_text(bytes);
        let judgement = judge_unexpected(bytes);
        let finding = judgement.findings.first()?;
        if finding.rule.id == cat::FRAME_BLANK_LINE.id {
            return Some(finding.to_violation());
        }
        let when = match (self.stage, self.game.current == self.bot) {
            (Stage::Handshake(_), _) if self.bot_name.is_none() => {
                "before its name request: nothing is due before the first request".to_string()
            }
            (Stage::Handshake(_), _) => "after its handshake: info lines get no reply".to_string(),
            (_, true) if self.turn_started => "after its reply: one line per request".to_string(),
            (_, true) => {
                "while its turn had not started: info lines (`gained`, `played`, `top-discard`, `supply`, …) get no reply"
                    .to_string()
            }
            (_, false) => format!(
                "during {}'s turn with no attack request due: info lines get no reply",
                flow::seat(self.game.current)
            ),
        };
        let rule = if self.robust {
            &cat::ROBUST_SUPPLY_WHILE_WAITING
        } else {
            &cat::IO_UNEXPECTED_OUTPUT
        };
        Some(
            rule.violation(format!(
                "the bot wrote `{shown}` {when}; the line is discarded"
            ))
            .with_actual(shown)
            .with_expected("(nothing)"),
        )
    }

    fn timed_out(&self, limit: Duration) -> Violation {
        let limit = humantime::format_duration(limit);
        cat::IO_TIMEOUT.violation(format!(
            "no complete line (LF included) within {limit} of {}: the bot is disqualified (is stdout flushed after each reply?)",
            self.due_word()
        ))
    }

    fn closed(&self, exit: Option<ExitStatus>, partial: Option<&[u8]>) -> Option<Violation> {
        if self.is_over() {
            return None;
        }
        let mut how = match exit {
            Some(status) => format!("the bot exited ({status}) before the game was over"),
            None => "the bot closed its output or input before the game was over".to_string(),
        };
        if let Some(p) = partial {
            how.push_str(&format!(
                ", leaving `{}` without LF",
                crate::shown::message_text(p)
            ));
        }
        Some(cat::IO_CRASH.violation(how))
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
        self.game.ended.is_some() || self.eof || self.stopped
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

