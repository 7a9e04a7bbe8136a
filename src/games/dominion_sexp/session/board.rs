//! The dealer's state drawn for humans: beside each finding, at `record`'s
//! `board`, and in the HTML report's step-through.

use super::SexpSession;
use crate::games::Drawn;

impl Drawn for SexpSession {
    fn board(&self) -> Option<String> {
        if !self.known {
            return None;
        }
        let seat = &self.game.players[self.game.current];
        let mut deck = seat.deck.clone();
        deck.sort_by_key(|c| c.name());
        let list = |cards: &[super::super::messages::Card]| {
            cards.iter().map(|c| c.name()).collect::<Vec<_>>().join(" ")
        };
        let scores: Vec<String> = self
            .game
            .players
            .iter()
            .zip(self.game.scores())
            .map(|(s, v)| format!("{} {v}", s.name))
            .collect();
        let status = match self.game.ended {
            Some(e) => format!("game over ({e:?})"),
            None => format!(
                "{}'s turn: actions {}, buys {}, coins {}",
                seat.name, self.game.actions, self.game.buys, self.game.coins
            ),
        };
        Some(format!(
            "{status}\nhand: {}\nplays: {}\ndeck: {}\ndiscards: {}\nprovinces left: {}\nscores: {} (the bot is {})",
            list(&seat.hand),
            list(&self.game.play_area),
            list(&deck),
            list(&seat.discard),
            self.game.supply.count(super::super::messages::Card::Province),
            scores.join(", "),
            self.bot_name()
        ))
    }
    fn picture(&self) -> Option<crate::outcome::Picture> {
        self.known
            .then(|| super::super::picture::picture(&self.game, self.bot))
    }
}
