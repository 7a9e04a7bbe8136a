//! The supply and a player's cards (§3.2, §3.7).

use super::super::cards::{Card, Shuffler};

/// Cards counted per supply pile, indexed like [`Card::SUPPLY`].
pub(super) type CardCounts = [u32; 17];

pub(super) fn counts_of(cards: &[Card]) -> CardCounts {
    let mut counts = [0; 17];
    for c in cards {
        counts[c.supply_index()] += 1;
    }
    counts
}

/// The 17 piles, in the order of [`Card::SUPPLY`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Supply {
    counts: CardCounts,
}

impl Supply {
    /// The piles after the starting decks are dealt (§3.2): curses
    /// 10 × (players − 1), coppers 60 − 7 × players, victory piles 8 with two
    /// players and 12 otherwise, 40 silver, 30 gold, 10 of each kingdom card.
    pub fn for_players(players: usize) -> Supply {
        let players = players as u32;
        let victory = if players <= 2 { 8 } else { 12 };
        let mut counts = [10; 17];
        counts[Card::Curse.supply_index()] = 10 * players.saturating_sub(1);
        counts[Card::Copper.supply_index()] = 60u32.saturating_sub(7 * players);
        counts[Card::Silver.supply_index()] = 40;
        counts[Card::Gold.supply_index()] = 30;
        for v in [Card::Estate, Card::Duchy, Card::Province] {
            counts[v.supply_index()] = victory;
        }
        Supply { counts }
    }

    pub fn count(&self, card: Card) -> u32 {
        self.counts[card.supply_index()]
    }

    /// The counts in supply order, as the `supply` line sends them.
    pub fn counts(&self) -> &[u32; 17] {
        &self.counts
    }

    /// Sets one pile (scenarios and tests that script a supply).
    pub fn set(&mut self, card: Card, count: u32) {
        self.counts[card.supply_index()] = count;
    }

    pub(super) fn take(&mut self, card: Card) -> bool {
        let n = &mut self.counts[card.supply_index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    pub fn empty_piles(&self) -> usize {
        self.counts.iter().filter(|&&n| n == 0).count()
    }

    /// Whether some non-empty pile passes `fits`.
    pub(super) fn any_available(&self, fits: impl Fn(Card) -> bool) -> bool {
        Card::SUPPLY
            .into_iter()
            .any(|c| self.count(c) > 0 && fits(c))
    }
}

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
