//! Scripted steps (README "dominion-text: scripted states"):
//! - `send:` a server line exactly as protocheck would send it next (the
//!   handshake, `game kingdom-cards`, the bot's `supply` and requests); it is
//!   checked against the tracked game, so a hand the bot cannot hold or a
//!   supply count that does not follow is a scenario error. A `supply` line
//!   sent while the bot waits (not at its turn's start) is the robustness
//!   probe of D2 (`robust.supply-while-waiting`): it must show the piles as
//!   they are.
//! - `opponent:` commands separated by `;`, for protocheck's side:
//!   `auto` (the built-in players move on until the bot owes a reply),
//!   `others` (the same, but stopping before the bot's turn starts, so that
//!   a state can be injected there), a built-in play in the bot's
//!   reply words (`action militia`, `buy province`, `pass`; it must be legal),
//!   and injected states: `hand <cards>` (the current built-in seat's hand at
//!   its turn start), `bot-hand <cards>` (the bot's hand between its turns
//!   or at its turn start), `bot-deck <cards>` (its draw pile, top card
//!   last; the old one goes to its discard pile), `supply <card> <n> …`
//!   (some piles' counts).
//!   Injected states stay ones a bot could meet: hands of at most 5 cards of
//!   the 17, piles never above their starting size, and not a supply that
//!   would have ended the game already.

use super::flow::{line, seat};
use super::{Stage, TextSession};
use crate::games::dominion::Card;
use crate::games::dominion::kingdom::Supply;
use crate::games::dominion_text::grammar::{
    Outcome, Reply, Request, ServerMessage, judge_reply, parse_server,
};
use crate::games::dominion_text::players::TurnPlay;
use crate::games::{Outgoing, ScriptError};

/// The most cards a hand holds outside its owner's own plays.
const MAX_HAND: usize = 5;

fn first_difference(a: &str, b: &str) -> usize {
    a.chars()
        .zip(b.chars())
        .position(|(x, y)| x != y)
        .unwrap_or(a.chars().count().min(b.chars().count()))
        + 1
}

fn card_list(words: &[&str], what: &str) -> Result<Vec<Card>, ScriptError> {
    words
        .iter()
        .map(|w| {
            Card::from_lowercase_name(w)
                .ok_or_else(|| format!("`{what}`: `{w}` is not one of the 17 card names").into())
        })
        .collect()
}

impl TextSession {
    fn bot_turn_start_next(&self) -> bool {
        self.planned.is_empty()
            && self.stage == Stage::Turns
            && self.game.ended.is_none()
            && self.due.is_none()
            && self.attacks.is_empty()
            && self.game.current == self.bot
            && !self.turn_started
    }

    /// What protocheck sends next without any choice of its own, if that
    /// is what comes next.
    fn plan(&mut self) -> Result<(), ScriptError> {
        if let Some(due) = self.due {
            return Err(format!(
                "the bot owes a reply ({due:?}) before protocheck sends anything else"
            ).into());
        }
        if self.game.ended.is_some() {
            return Err("the game is over: protocheck sends nothing more".into());
        }
        let mut out = Vec::new();
        match self.stage {
            Stage::Handshake(_) => self.handshake(&mut out),
            Stage::Turns if self.bot_turn_start_next() => self.start_bot_turn(&mut out),
            Stage::Turns if !self.attacks.is_empty() => {
                if !self.resolve_attacks(&mut out) && self.game.current == self.bot {
                    out.push(line(self.play_turn()));
                    self.due = Some(super::Due::PlayTurn);
                }
            }
            Stage::Turns => {}
        }
        if out.is_empty() {
            return Err(format!(
                "it is {}'s turn, a built-in seat's: its plays are `opponent:` steps (`auto`, `action …`, `buy …`, `pass`), not `send:`",
                seat(self.game.current)
            ).into());
        }
        self.planned.extend(out);
        Ok(())
    }

    pub(super) fn scripted_send(&mut self, text: &str) -> Result<Outgoing, ScriptError> {
        let message =
            parse_server(text).map_err(|e| format!("not a dominion-text server message: {e}"))?;
        if !self.known {
            return Ok(Outgoing {
                text: text.to_string(),
                replies: usize::from(message.request().is_some()),
            });
        }
        let supply_next = self
            .planned
            .front()
            .is_some_and(|o| o.text.starts_with("supply "))
            || self.bot_turn_start_next();
        if let ServerMessage::Supply(counts) = &message
            && !supply_next
        {
            // D2's robustness probe: the piles as they are, while the bot
            // waits.
            let now = ServerMessage::Supply(*self.game.supply.counts()).to_string();
            if counts != self.game.supply.counts() {
                return Err(format!(
                    "this supply does not follow from the game so far (column {}): the piles are `{now}`",
                    first_difference(text, &now)
                ).into());
            }
            if self.stage != Stage::Turns || self.game.ended.is_some() {
                return Err(
                    "a supply line is sent only once the game has started and before it ends"
                        .into(),
                );
            }
            self.robust = true;
            return Ok(Outgoing::silent(text));
        }
        if self.planned.is_empty() {
            self.plan()?;
        }
        let next = self.planned.pop_front().expect("planned");
        if next.text != text {
            return Err(format!(
                "this message does not follow from the game so far (column {}): protocheck sends `{}` here",
                first_difference(text, &next.text),
                next.text
            ).into());
        }
        if next.replies > 0 {
            self.robust = false;
        }
        Ok(next)
    }

    pub(super) fn scripted_opponent(
        &mut self,
        choice: &str,
        rng: &mut fastrand::Rng,
    ) -> Result<Vec<Outgoing>, ScriptError> {
        let mut out: Vec<Outgoing> = self.planned.drain(..).collect();
        let commands: Vec<&str> = choice
            .split(';')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        if commands.is_empty() {
            return Err("`opponent:` needs `auto`, a built-in play (`action …`, `buy …`, `pass`) or a state (`hand …`, `bot-hand …`, `supply …`)".into());
        }
        let mut done: Vec<String> = Vec::new();
        for command in commands {
            let words: Vec<&str> = command.split_ascii_whitespace().collect();
            match words[0] {
                "auto" | "others" => {
                    let mut plays = Vec::new();
                    let before = out.len();
                    let started = self.advance(rng, &mut out, &mut plays, words[0] == "others");
                    // Written out so that a replay needs no choices: the
                    // built-in plays, then `auto` for what needs none (the
                    // handshake, the bot's turn start).
                    let unchosen = started || (plays.is_empty() && out.len() > before);
                    done.extend(plays);
                    if unchosen {
                        done.push("auto".into());
                    }
                }
                "hand" => {
                    self.inject_hand(&words)?;
                    done.push(command.to_string());
                }
                "bot-hand" => {
                    self.inject_bot_hand(&words)?;
                    done.push(command.to_string());
                }
                "bot-deck" => {
                    self.inject_bot_deck(&words)?;
                    done.push(command.to_string());
                }
                "supply" => {
                    self.inject_supply(&words)?;
                    done.push(command.to_string());
                }
                "action" | "buy" | "pass" => {
                    let play = self.builtin_play(command, &mut out)?;
                    done.push(play.to_string());
                }
                other => {
                    return Err(format!(
                        "`{other}` is not an opponent command: `auto`, `others`, `action …`, `buy …`, `pass`, `hand …`, `bot-hand …`, `bot-deck …` or `supply …`"
                    ).into());
                }
            }
        }
        self.last_opponent = Some(if done.is_empty() {
            "auto".to_string()
        } else {
            done.join("; ")
        });
        Ok(out)
    }

    fn at_turn_start(&self) -> bool {
        self.due.is_none() && self.attacks.is_empty() && !self.turn_started
    }

    fn inject_hand(&mut self, words: &[&str]) -> Result<(), ScriptError> {
        let cards = card_list(&words[1..], "hand")?;
        let current = self.game.current;
        if current == self.bot {
            return Err(
                "`hand` sets a built-in seat's hand, and it is the bot's turn: use `bot-hand`"
                    .into(),
            );
        }
        if !self.at_turn_start() || self.game.ended.is_some() {
            return Err(format!(
                "`hand` sets {}'s hand at the start of its turn only",
                seat(current)
            ).into());
        }
        if cards.len() > MAX_HAND {
            return Err(format!(
                "a hand at the start of a turn holds at most {MAX_HAND} cards, not {}",
                cards.len()
            ).into());
        }
        let player = &mut self.game.players[current];
        let old = std::mem::replace(&mut player.hand, cards);
        player.discard.extend(old);
        Ok(())
    }

    fn inject_bot_hand(&mut self, words: &[&str]) -> Result<(), ScriptError> {
        let cards = card_list(&words[1..], "bot-hand")?;
        if cards.len() > MAX_HAND {
            return Err(format!(
                "the bot cannot hold {} cards here: a hand holds at most {MAX_HAND} outside the bot's own plays",
                cards.len()
            ).into());
        }
        if self.due.is_some() || self.game.ended.is_some() {
            return Err("`bot-hand` only between requests, while the game goes on".into());
        }
        if self.game.current == self.bot && self.turn_started {
            return Err(
                "`bot-hand` during the bot's own turn: its hand follows from its plays".into(),
            );
        }
        let player = &mut self.game.players[self.bot];
        let old = std::mem::replace(&mut player.hand, cards);
        player.discard.extend(old);
        Ok(())
    }

    /// The bot's draw pile, top card last; its old deck goes to its discard
    /// pile (so a short deck reshuffles mid-draw, §3.7).
    fn inject_bot_deck(&mut self, words: &[&str]) -> Result<(), ScriptError> {
        let cards = card_list(&words[1..], "bot-deck")?;
        if self.due.is_some() || self.game.ended.is_some() {
            return Err("`bot-deck` only between requests, while the game goes on".into());
        }
        if self.game.current == self.bot && self.turn_started {
            return Err(
                "`bot-deck` during the bot's own turn: its deck follows from its plays".into(),
            );
        }
        let player = &mut self.game.players[self.bot];
        let old = std::mem::replace(&mut player.deck, cards);
        player.discard.extend(old);
        Ok(())
    }

    fn inject_supply(&mut self, words: &[&str]) -> Result<(), ScriptError> {
        let pairs = &words[1..];
        if pairs.is_empty() || !pairs.len().is_multiple_of(2) {
            return Err(
                "`supply` takes pairs `<card> <count>`, e.g. `supply gold 0 province 1`".into(),
            );
        }
        if !self.at_turn_start() || self.game.ended.is_some() {
            return Err("`supply` only between turns, while the game goes on".into());
        }
        let start = Supply::for_players(self.game.players.len());
        let mut supply = self.game.supply.clone();
        for pair in pairs.chunks(2) {
            let card = Card::from_lowercase_name(pair[0]).ok_or_else(|| {
                format!("`supply`: `{}` is not one of the 17 card names", pair[0])
            })?;
            let n: u32 = pair[1]
                .parse()
                .map_err(|_| format!("`supply`: `{}` is not a count", pair[1]))?;
            if n > start.count(card) {
                return Err(format!(
                    "the {card} pile never holds more than its {} at the start",
                    start.count(card)
                ).into());
            }
            supply.set(card, n);
        }
        if supply.count(Card::Province) == 0 || supply.empty_piles() >= 3 {
            return Err("with these piles the game would already be over (docs/games/dominion-text.md, decision 22): leave the province pile and at least 15 piles non-empty".into());
        }
        self.game.supply = supply;
        Ok(())
    }

    /// A scripted play of the current built-in seat; it must be legal.
    fn builtin_play(
        &mut self,
        command: &str,
        out: &mut Vec<Outgoing>,
    ) -> Result<TurnPlay, ScriptError> {
        if let Stage::Handshake(_) = self.stage {
            return Err("the handshake is not over: begin with `opponent: auto` and the bot's two handshake replies".into());
        }
        if self.game.ended.is_some() {
            return Err("the game is over: nobody plays any more".into());
        }
        if self.due.is_some() {
            return Err("the bot owes a reply first".into());
        }
        if !self.attacks.is_empty() && self.resolve_attacks(out) {
            return Err("militia attacks the bot first: its answer is due".into());
        }
        let current = self.game.current;
        if current == self.bot {
            return Err(format!(
                "it is the bot's turn ({}), not a built-in seat's",
                seat(self.bot)
            ).into());
        }
        let judgement = judge_reply(
            Request::PlayTurn,
            format!("play-reply {command}\n").as_bytes(),
        );
        let play = match (judgement.outcome, judgement.findings.is_empty()) {
            (Outcome::Reply(Reply::Action { card, args }), true) => TurnPlay::Action(card, args),
            (Outcome::Reply(Reply::Buy(cards)), true) => TurnPlay::Buy(cards),
            (Outcome::Reply(Reply::Pass), true) => TurnPlay::Pass,
            (_, _) => {
                return Err(format!(
                    "`{command}` is not a play in the reply grammar, e.g. `action smithy`, `buy silver`, `pass`"
                ).into());
            }
        };
        let illegal = match &play {
            TurnPlay::Action(card, args) => match self.game.check_action(*card, args) {
                Ok(None) => None,
                Ok(Some(rule)) | Err(rule) => Some(rule),
            },
            TurnPlay::Buy(cards) => self.game.clone().buy(cards).rule,
            TurnPlay::Pass => None,
        };
        if let Some(rule) = illegal {
            let hand: Vec<&str> = self.game.hand().iter().map(|c| c.name()).collect();
            return Err(format!(
                "{} cannot play `{command}` with hand [{}] ({}): built-in plays are legal",
                seat(current),
                hand.join(" "),
                rule.id()
            ).into());
        }
        self.apply_play(&play, out);
        if !self.attacks.is_empty() {
            self.resolve_attacks(out);
        }
        Ok(play)
    }
}
