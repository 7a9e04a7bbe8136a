//! The game's message flow (§4): the handshake seat by seat, the turns of
//! every seat with their info lines in the order of §4.2 and D6, militia's
//! attacks in seat order, and the built-in seats' plays. Only what the bot
//! receives is produced: info lines go to every player (D3), `supply` and
//! requests only to the player concerned (D2).

use super::{Due, Stage, TextSession};
use crate::games::Outgoing;
use crate::games::dominion::Card;
use crate::games::dominion::kingdom::{ActionOutcome, AttackReply, Rule};
use crate::games::dominion_text::grammar::{CardListKind, Seat, ServerMessage};
use crate::games::dominion_text::players::{AttackAnswer, BuiltInPlayer, TurnPlay};

pub(super) fn seat(index: usize) -> Seat {
    Seat::new(index as u8 + 1).expect("seats are 1 to 4")
}

pub(super) fn line(m: ServerMessage) -> Outgoing {
    let replies = usize::from(m.request().is_some());
    Outgoing {
        text: m.to_string(),
        replies,
    }
}

fn cards_line(index: usize, kind: CardListKind, cards: Vec<Card>) -> Outgoing {
    line(ServerMessage::CardList {
        seat: seat(index),
        kind,
        cards,
    })
}

impl TextSession {
    /// Runs the handshake on from its current seat: built-in seats answer
    /// internally; the bot's seat gets its name request (and stops here);
    /// after the last seat every player gets `game kingdom-cards` (D5).
    pub(super) fn handshake(&mut self, out: &mut Vec<Outgoing>) {
        while let Stage::Handshake(next) = self.stage {
            if next == self.game.players.len() {
                out.push(line(ServerMessage::Kingdom));
                self.stage = Stage::Turns;
                self.turn_started = false;
                return;
            }
            if next == self.bot {
                out.push(line(ServerMessage::NameRequest(seat(self.bot))));
                self.due = Some(Due::Name);
                return;
            }
            self.stage = Stage::Handshake(next + 1);
        }
    }

    /// The `play-request play-turn` for the current state.
    pub(super) fn play_turn(&self) -> ServerMessage {
        ServerMessage::PlayTurn {
            actions: self.game.actions,
            buys: self.game.buys,
            extra_money: self.game.coins,
            hand: self.game.hand().to_vec(),
        }
    }

    /// The start of the bot's turn: `supply` to it alone, then its request.
    pub(super) fn start_bot_turn(&mut self, out: &mut Vec<Outgoing>) {
        out.push(line(ServerMessage::Supply(*self.game.supply.counts())));
        out.push(line(self.play_turn()));
        self.due = Some(Due::PlayTurn);
        self.turn_started = true;
    }

    /// Applies one play of the current seat (the bot's reply or a built-in
    /// choice) with the document's recovery, and the info lines it causes.
    /// Returns the rule the engine found, and whether the turn went on.
    pub(super) fn apply_play(
        &mut self,
        play: &TurnPlay,
        out: &mut Vec<Outgoing>,
    ) -> (Option<Rule>, bool) {
        let current = self.game.current;
        self.turn_started = true;
        match play {
            TurnPlay::Action(card, args) => {
                let outcome = self.game.play_action(*card, args, &mut self.shuffler);
                let ActionOutcome {
                    rule,
                    ends_turn,
                    discarded,
                    trashed,
                    attack,
                    ..
                } = outcome;
                if ends_turn {
                    self.end_turn(out);
                    return (rule, false);
                }
                if let Some(t) = trashed {
                    out.push(cards_line(current, CardListKind::Trashed, vec![t]));
                }
                if let Some(&top) = discarded.last() {
                    out.push(cards_line(current, CardListKind::Discarded, discarded));
                    out.push(line(ServerMessage::TopDiscard(seat(current), Some(top))));
                }
                if attack {
                    self.attacks = self.game.attack_order().collect();
                }
                (rule, true)
            }
            TurnPlay::Buy(cards) => {
                let rule = self.game.buy(cards).rule;
                self.end_turn(out);
                (rule, false)
            }
            TurnPlay::Pass => {
                self.end_turn(out);
                (None, false)
            }
        }
    }

    /// A `play-turn` reply the grammar rejected (§3.5): one action spent and
    /// the request repeated, or with no actions the turn ends.
    pub(super) fn malformed_turn_reply(&mut self, out: &mut Vec<Outgoing>) -> bool {
        self.turn_started = true;
        if self.game.malformed_turn_reply() {
            self.end_turn(out);
            false
        } else {
            true
        }
    }

    /// Clean-up and its lines: gained, played, top-discard (§4.2, D6).
    pub(super) fn end_turn(&mut self, out: &mut Vec<Outgoing>) {
        let end = self.game.end_turn(&mut self.shuffler);
        if !end.gained.is_empty() {
            out.push(cards_line(end.seat, CardListKind::Gained, end.gained));
        }
        if !end.played.is_empty() {
            out.push(cards_line(end.seat, CardListKind::Played, end.played));
        }
        out.push(line(ServerMessage::TopDiscard(
            seat(end.seat),
            end.top_discard,
        )));
        self.attacks.clear();
        self.turn_started = false;
    }

    /// Militia's attacks still to handle, in seat order after the attacker
    /// (§3.6): built-in seats answer at once; at the bot's seat its request
    /// goes out and this stops (true) until it has answered; at a relayed
    /// seat (a match table) this stops (true) with that seat first, until
    /// its answer comes relayed.
    pub(super) fn resolve_attacks(&mut self, out: &mut Vec<Outgoing>) -> bool {
        while let Some(&q) = self.attacks.front() {
            let Some(n) = self.game.attack_discard_count(q) else {
                self.attacks.pop_front();
                continue;
            };
            if self.relayed.at(q) {
                return true;
            }
            self.attacks.pop_front();
            if q == self.bot {
                out.push(line(ServerMessage::Attack {
                    discard: n as u32,
                    hand: self.game.players[q].hand.clone(),
                }));
                self.due = Some(Due::Attack);
                return true;
            }
            let answer = BuiltInPlayer::answer_attack(&self.game.players[q].hand, n);
            let reply = match &answer {
                AttackAnswer::RevealMoat => AttackReply::RevealMoat,
                AttackAnswer::Discard(cards) => AttackReply::Discard(cards),
            };
            let outcome = self.game.resolve_attack(q, Some(reply), &mut self.shuffler);
            self.attack_lines(q, outcome.revealed_moat, outcome.discarded, out);
        }
        false
    }

    /// The announcements after an attacked player's answer (§3.6).
    pub(super) fn attack_lines(
        &self,
        q: usize,
        revealed_moat: bool,
        discarded: Vec<Card>,
        out: &mut Vec<Outgoing>,
    ) {
        if revealed_moat {
            out.push(line(ServerMessage::Revealed(seat(q), Card::Moat)));
        } else if let Some(&top) = discarded.last() {
            out.push(cards_line(q, CardListKind::Discarded, discarded));
            out.push(line(ServerMessage::TopDiscard(seat(q), Some(top))));
        }
    }

    /// protocheck's side moves on until the bot owes a reply or the game is
    /// over, starting the bot's turn (`supply` and its request) when it
    /// comes; with `stop_before_bot_turn`, it stops instead once a built-in
    /// seat has moved and the bot's turn is about to start (a scenario's
    /// `others`, to inject a state there). Built-in choices are logged to
    /// `plays`; returns whether the bot's turn was started.
    pub(super) fn advance(
        &mut self,
        rng: &mut fastrand::Rng,
        out: &mut Vec<Outgoing>,
        plays: &mut Vec<String>,
        stop_before_bot_turn: bool,
    ) -> bool {
        let mut moved = false;
        loop {
            if self.game.ended.is_some() || self.due.is_some() {
                return false;
            }
            if let Stage::Handshake(_) = self.stage {
                self.handshake(out);
                moved = true;
                continue;
            }
            if !self.attacks.is_empty() {
                if self.resolve_attacks(out) {
                    return false;
                }
                if self.game.current == self.bot {
                    // The bot's own militia: its next request follows.
                    out.push(line(self.play_turn()));
                    self.due = Some(Due::PlayTurn);
                    return false;
                }
                continue;
            }
            if self.game.current == self.bot {
                if self.turn_started || (stop_before_bot_turn && moved) {
                    return false;
                }
                self.start_bot_turn(out);
                return true;
            }
            if self.relayed.at(self.game.current) {
                // A real bot's turn at a match table: its plays come relayed.
                return false;
            }
            let usual = self.built_ins[self.game.current].choose(&self.game, rng);
            let play = self.aimed(usual);
            plays.push(play.to_string());
            self.apply_play(&play, out);
            moved = true;
        }
    }
}

impl TextSession {
    /// Generated play aiming at what is missing (`coverage::Aims`): a
    /// built-in seat that may play its militia now plays it when the bot's
    /// answer would be a situation the run has not reached; otherwise its
    /// usual play.
    fn aimed(&self, usual: TurnPlay) -> TurnPlay {
        let Some(aims) = &self.aims else {
            return usual;
        };
        if self.game.actions == 0
            || !self.game.hand().contains(&Card::Militia)
            || self.game.check_action(Card::Militia, &[]) != Ok(None)
        {
            return usual;
        }
        let militia = TurnPlay::Action(Card::Militia, Vec::new());
        let reaches = crate::games::dominion::coverage::militia_reaches(&self.game, self.bot);
        aims.choose(&self.situations, [(militia, reaches)])
            .unwrap_or(usual)
    }
}
