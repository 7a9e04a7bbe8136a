//! A player at the table and the cards they own (dominion-text §3.7,
//! dominion-sexp §3.5).

use super::super::cards::{Card, Shuffler};
use super::Newest;

/// One player at the table: the name the protocol shows, the cards outside
/// the supply and the play area, and the turns taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatedPlayer {
    /// Version 1's letters (dominion-sexp D8); `player1` … in the line
    /// protocol.
    pub name: String,
    /// The top card is the last element.
    pub deck: Vec<Card>,
    /// The newest card at the table's [`Newest`] end.
    pub hand: Vec<Card>,
    /// The newest card (the top) at the table's [`Newest`] end.
    pub discard: Vec<Card>,
    pub turns: u32,
    /// Draws that ran out of deck part-way and reshuffled the discard
    /// pile to go on (the coverage report's situation).
    pub reshuffles_mid_draw: u32,
}

impl SeatedPlayer {
    /// Draws up to `k` cards one at a time into the hand's `newest` end,
    /// shuffling the whole discard pile into a new deck whenever the deck
    /// is empty; stops early when both are empty (dominion-text §3.7,
    /// dominion-sexp §3.5). Returns how many were drawn.
    pub fn draw(&mut self, k: usize, newest: Newest, shuffler: &mut dyn Shuffler) -> usize {
        for drawn in 0..k {
            if self.deck.is_empty() {
                if self.discard.is_empty() {
                    return drawn;
                }
                std::mem::swap(&mut self.deck, &mut self.discard);
                shuffler.shuffle(&mut self.deck);
                if drawn > 0 {
                    self.reshuffles_mid_draw += 1;
                }
            }
            let Some(card) = self.deck.pop() else {
                return drawn;
            };
            newest.put(&mut self.hand, card);
        }
        k
    }

    /// Every card the player owns: deck, hand and discard pile
    /// (dominion-text §3.8, dominion-sexp §3.6).
    pub fn owned(&self) -> impl Iterator<Item = Card> + '_ {
        self.deck
            .iter()
            .chain(&self.hand)
            .chain(&self.discard)
            .copied()
    }

    /// Victory points over every card owned (curse −1; version 1 has none).
    pub fn score(&self) -> i32 {
        self.owned().map(Card::victory_points).sum()
    }

    /// Removes the first occurrence of `card` from the hand.
    pub fn remove_from_hand(&mut self, card: Card) -> bool {
        remove_first(&mut self.hand, card)
    }
}

/// Removes the first occurrence of `card`; false when there is none.
pub fn remove_first(cards: &mut Vec<Card>, card: Card) -> bool {
    match cards.iter().position(|&c| c == card) {
        Some(i) => {
            cards.remove(i);
            true
        }
        None => false,
    }
}
