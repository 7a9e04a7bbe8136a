//! The capabilities of a TextSession beside judging: `Scripted` (the lint, `record` and saved games carry steps out without a bot) and `Drawn` (the state drawn for humans).

use super::*;

impl Scripted for TextSession {
    fn assume(&mut self, pinned: Option<&str>) -> Result<Vec<Outgoing>, ScriptError> {
        if !self.known {
            return Ok(Vec::new());
        }
        let seat = self.bot_seat();
        // The handshake replies change nothing but the flow: a correct one
        // is assumed when the scenario does not pin it.
        let text = match (pinned, self.due) {
            (Some(t), _) => t.to_string(),
            (None, Some(Due::Name)) => format!("player {seat} bot"),
            (None, Some(Due::Version)) => format!("player {seat} version 1"),
            (None, _) => {
                self.due = None;
                self.known = false;
                return Ok(Vec::new());
            }
        };
        self.judge_line(format!("{text}\n").as_bytes())
            .assumed(&text)
    }

    fn state_known(&self) -> bool {
        self.known
    }

    fn last_opponent_step(&self) -> Option<Step> {
        self.last_opponent.clone().map(|m| Step::Opponent(Token(m)))
    }

    /// At a built-in seat's play (militia it played resolved first, as
    /// `opponent: <play>` does): its strategy's play, then the plays that
    /// end its turn at once: each single buy it can make, dearest first
    /// (the buys that bring the game's end nearer), and `pass`. Elsewhere
    /// none: what protocheck sends there (`opponent: auto`) holds no
    /// choice.
    fn own_moves(&self) -> Vec<String> {
        let ready = self.known
            && self.stage == Stage::Turns
            && self.game.ended.is_none()
            && self.due.is_none()
            && self.planned.is_empty();
        if !ready {
            return Vec::new();
        }
        let mut at = self.clone();
        if !at.attacks.is_empty() && at.resolve_attacks(&mut Vec::new()) {
            return Vec::new();
        }
        let current = at.game.current;
        if current == at.bot || at.relayed.at(current) || at.game.ended.is_some() {
            return Vec::new();
        }
        let own = at.built_ins[current].choose(&at.game, &mut at.chooser.clone());
        let mut buys: Vec<Card> = Card::SUPPLY
            .into_iter()
            .filter(|&c| at.game.clone().buy(&[c]).rule.is_none())
            .collect();
        // Stable: among equal costs, supply order.
        buys.sort_by_key(|c| std::cmp::Reverse(c.cost()));
        let mut moves = vec![own.to_string()];
        for play in buys
            .into_iter()
            .map(|c| TurnPlay::Buy(vec![c]))
            .chain([TurnPlay::Pass])
        {
            let play = play.to_string();
            if !moves.contains(&play) {
                moves.push(play);
            }
        }
        moves
    }
}


impl Drawn for TextSession {
    fn board(&self) -> Option<String> {
        // Before the first turn there is nothing to draw but the starting
        // decks, which every bot knows.
        if !self.known || self.stage != Stage::Turns {
            return None;
        }
        let list = |cards: &[Card]| {
            if cards.is_empty() {
                return "(none)".to_string();
            }
            cards.iter().map(|c| c.name()).collect::<Vec<_>>().join(" ")
        };
        let current = self.game.current;
        let player = &self.game.players[current];
        let scores: Vec<String> = self
            .game
            .scores()
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {s}", flow::seat(i)))
            .collect();
        let status = match self.game.ended {
            Some(e) => format!("game over ({e:?})"),
            None => format!(
                "{}'s turn: actions {}, buys {}, extra-money {}",
                flow::seat(current),
                self.game.actions,
                self.game.buys,
                self.game.coins
            ),
        };
        let bot = &self.game.players[self.bot];
        Some(format!(
            "{status}\nhand: {}\nplayed: {}\nthe bot ({}) holds: {}\n{}\nscores: {}",
            list(&player.hand),
            list(&self.game.play_area),
            self.bot_seat(),
            list(&bot.hand),
            super::super::grammar::ServerMessage::Supply(*self.game.supply.counts()),
            scores.join(", ")
        ))
    }
    fn picture(&self) -> Option<crate::outcome::Picture> {
        (self.known && self.stage == Stage::Turns)
            .then(|| super::super::picture::picture(&self.game, self.bot))
    }
}
