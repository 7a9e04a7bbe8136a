//! A player's cards (§3.7).

use super::super::cards::{Card, Shuffler};

/// One player's cards outside the supply and the play area.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerCards {
    /// The top card is the last element.
    pub deck: Vec<Card>,
    pub hand: Vec<Card>,
    /// The top card is the last element.
    pub discard: Vec<Card>,
    pub turns: u32,
}

impl PlayerCards {
    /// Draws up to `k` cards one at a time, shuffling the whole discard pile
    /// into a new deck whenever the deck is empty; stops early when both are
    /// empty (§3.7). Returns how many were drawn.
    pub fn draw(&mut self, k: usize, shuffler: &mut dyn Shuffler) -> usize {
        for drawn in 0..k {
            if self.deck.is_empty() {
                if self.discard.is_empty() {
                    return drawn;
                }
                std::mem::swap(&mut self.deck, &mut self.discard);
                shuffler.shuffle(&mut self.deck);
            }
            let Some(card) = self.deck.pop() else {
                return drawn;
            };
            self.hand.push(card);
        }
        k
    }

    /// Every card the player owns: deck, hand and discard pile (§3.8).
    pub fn owned(&self) -> impl Iterator<Item = Card> + '_ {
        self.deck
            .iter()
            .chain(&self.hand)
            .chain(&self.discard)
            .copied()
    }

    pub fn score(&self) -> i32 {
        self.owned().map(Card::victory_points).sum()
    }

    pub(super) fn remove_from_hand(&mut self, card: Card) -> bool {
        match self.hand.iter().position(|&c| c == card) {
            Some(i) => {
                self.hand.remove(i);
                true
            }
            None => false,
        }
    }
}
