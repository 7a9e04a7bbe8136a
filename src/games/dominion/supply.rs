//! The supply of both Dominion games: one count per card, and the piles a
//! protocol stocks in the order it lists them. The protocols differ only in
//! that parameter: the line protocol stocks all 17 cards in [`Card::SUPPLY`]
//! order (`rules/dominion-text.md` §3.2), version 1 of the S-expression
//! protocol the seven of its `Card::V1` (`rules/dominion-sexp.md` §3.2, D5).

use super::cards::Card;

/// Cards counted per supply pile, indexed like [`Card::SUPPLY`].
pub(super) type CardCounts = [u32; 17];

pub(super) fn counts_of(cards: &[Card]) -> CardCounts {
    let mut counts = [0; 17];
    for c in cards {
        counts[c.supply_index()] += 1;
    }
    counts
}

/// The supply: how many of each card are left, and the piles as the
/// protocol lists them. Two supplies are equal when they list the same
/// cards in the same order.
#[derive(Clone, Debug)]
pub struct Supply {
    /// Per card, the sum of its runs.
    counts: CardCounts,
    /// Runs of equal cards in listed order. A run that runs out stays, empty
    /// (its pile is still stocked); a card may have several runs only in a
    /// flat list read from a state, where taking it takes the first one that
    /// is left (dominion-sexp §3.2).
    runs: Vec<(Card, u32)>,
    /// One bit per card ([`Card::supply_index`]) that has a pile, empty or not.
    stocked: u32,
}

impl Supply {
    fn empty() -> Supply {
        Supply {
            counts: [0; 17],
            runs: Vec::new(),
            stocked: 0,
        }
    }

    /// The piles after the starting decks are dealt (dominion-text §3.2,
    /// dominion-sexp §3.2), for the cards `piles` lists in its order: curses
    /// 10 × (players − 1), coppers 60 − 7 × players, victory piles 8 with two
    /// players and 12 otherwise, 40 silver, 30 gold, 10 of each kingdom card.
    pub fn stocked(players: usize, piles: &[Card]) -> Supply {
        let players = players as u32;
        let victory = if players <= 2 { 8 } else { 12 };
        let mut supply = Supply::empty();
        for &card in piles {
            let count = match card {
                Card::Curse => 10 * players.saturating_sub(1),
                Card::Copper => 60u32.saturating_sub(7 * players),
                Card::Silver => 40,
                Card::Gold => 30,
                Card::Estate | Card::Duchy | Card::Province => victory,
                _ => 10,
            };
            supply.push(card, count);
        }
        supply
    }

    /// The line protocol's 17 piles in [`Card::SUPPLY`] order (§3.2).
    pub fn for_players(players: usize) -> Supply {
        Supply::stocked(players, &Card::SUPPLY)
    }

    /// Piles in the order given (scenarios and tests that script a supply).
    pub fn from_piles(piles: &[(Card, u32)]) -> Supply {
        let mut supply = Supply::empty();
        for &(card, n) in piles {
            supply.push(card, n);
        }
        supply
    }

    /// The flat list as a state shows it, runs of equal cards kept in order.
    pub fn from_cards(cards: &[Card]) -> Supply {
        let mut supply = Supply::empty();
        for &c in cards {
            supply.push(c, 1);
        }
        supply
    }

    /// Adds `n` cards after the last run (joining it when it is the same
    /// card).
    fn push(&mut self, card: Card, n: u32) {
        self.counts[card.supply_index()] += n;
        self.stocked |= 1 << card.supply_index();
        match self.runs.last_mut() {
            Some((c, k)) if *c == card => *k += n,
            _ => self.runs.push((card, n)),
        }
    }

    pub fn count(&self, card: Card) -> u32 {
        self.counts[card.supply_index()]
    }

    pub fn contains(&self, card: Card) -> bool {
        self.count(card) > 0
    }

    /// The counts in [`Card::SUPPLY`] order, as the line protocol's `supply`
    /// line sends them.
    pub fn counts(&self) -> &[u32; 17] {
        &self.counts
    }

    /// Sets one card's count (scenarios and tests that script a supply): in
    /// its first run, its other runs emptied; a card not stocked gets a pile
    /// at the end.
    pub fn set(&mut self, card: Card, count: u32) {
        self.counts[card.supply_index()] = count;
        let mut first = true;
        for (_, n) in self.runs.iter_mut().filter(|(c, _)| *c == card) {
            *n = if first { count } else { 0 };
            first = false;
        }
        if first {
            self.stocked |= 1 << card.supply_index();
            self.runs.push((card, count));
        }
    }

    /// Takes one card, from the first of its runs that is left; false when
    /// there is none.
    pub fn take(&mut self, card: Card) -> bool {
        let Some(run) = self.runs.iter_mut().find(|(c, n)| *c == card && *n > 0) else {
            return false;
        };
        run.1 -= 1;
        self.counts[card.supply_index()] -= 1;
        true
    }

    /// How many stocked piles are empty (dominion-text §3.8).
    pub fn empty_piles(&self) -> usize {
        Card::SUPPLY
            .into_iter()
            .filter(|&c| self.count(c) == 0 && self.stocked & (1 << c.supply_index()) != 0)
            .count()
    }

    /// Whether some non-empty pile passes `fits`.
    pub fn any_available(&self, fits: impl Fn(Card) -> bool) -> bool {
        Card::SUPPLY
            .into_iter()
            .any(|c| self.count(c) > 0 && fits(c))
    }

    /// The cards left, pile by pile in listed order.
    fn listed(&self) -> impl Iterator<Item = Card> + '_ {
        self.runs
            .iter()
            .flat_map(|&(c, n)| std::iter::repeat_n(c, n as usize))
    }

    /// The flat list, as a state shows it.
    pub fn cards(&self) -> Vec<Card> {
        self.listed().collect()
    }

    /// The stocked piles in listed order, each once, empty ones included
    /// (a drawing keeps a pile in its place when it runs out).
    pub fn piles(&self) -> Vec<Card> {
        let mut piles: Vec<Card> = Vec::new();
        for &(card, _) in &self.runs {
            if !piles.contains(&card) {
                piles.push(card);
            }
        }
        piles
    }
}

impl PartialEq for Supply {
    fn eq(&self, other: &Supply) -> bool {
        self.counts == other.counts && self.listed().eq(other.listed())
    }
}

impl Eq for Supply {}

#[cfg(test)]
mod tests {
    use super::*;
    use Card::*;

    #[test]
    fn the_two_protocols_stock_the_same_formulas_over_their_own_piles() {
        let v1_piles = [Copper, Silver, Gold, Estate, Duchy, Province, Mine];
        let line = Supply::for_players(3);
        let v1 = Supply::stocked(3, &v1_piles);
        for c in v1_piles {
            assert_eq!(v1.count(c), line.count(c), "{c}");
        }
        let first_of_each = |s: &Supply| {
            let mut cards = s.cards();
            cards.dedup();
            cards
        };
        assert_eq!(first_of_each(&line), Card::SUPPLY);
        assert_eq!(first_of_each(&v1), v1_piles);
        assert_eq!((line.count(Curse), v1.count(Curse)), (20, 0));
        assert_eq!((line.count(Copper), line.count(Province)), (39, 12));
        assert_eq!(Supply::for_players(2).count(Duchy), 8);
        assert!(!v1.contains(Cellar) && line.contains(Cellar));
    }

    #[test]
    fn a_state_lists_its_piles_in_their_order_and_drops_empty_ones() {
        let mut supply = Supply::from_cards(&[Copper, Gold, Gold, Silver, Mine]);
        assert_eq!(supply.cards(), [Copper, Gold, Gold, Silver, Mine]);
        assert!(supply.take(Copper));
        assert!(!supply.take(Copper));
        assert!(supply.take(Gold));
        assert_eq!(supply.cards(), [Gold, Silver, Mine]);
        assert_eq!(supply, Supply::from_cards(&[Gold, Silver, Mine]));
        assert_ne!(supply, Supply::from_cards(&[Silver, Gold, Mine]));
        assert_eq!(supply.empty_piles(), 1);
        let mut split = Supply::from_cards(&[Copper, Gold, Copper]);
        assert!(split.take(Copper) && split.take(Copper));
        assert_eq!(split.cards(), [Gold]);
        assert_eq!(split.empty_piles(), 1);
        split.set(Copper, 2);
        assert_eq!(split.cards(), [Copper, Copper, Gold]);
        assert_eq!(
            supply.piles(),
            [Copper, Gold, Silver, Mine],
            "empty piles stay"
        );
        assert_eq!(split.piles(), [Copper, Gold], "a card's runs are one pile");
        assert!(!supply.any_available(|c| c == Copper));
        assert!(supply.any_available(|c| c == Mine));
    }
}
