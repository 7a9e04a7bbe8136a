//! The one card model of both Dominion games: the 17 cards, their kinds,
//! costs, coin values, victory points and lowercase names
//! (`rules/dominion-text.md` §3.1, `rules/dominion-sexp.md` §3.1). Which
//! cards a protocol accepts, and how it spells them, stays with the protocol.

use std::fmt;

/// A card. The order of the variants is not the supply order of either
/// protocol (each lists its own); `Curse` is last so that the S-expression
/// game's derived ordering of its 16 cards is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    Copper,
    Silver,
    Gold,
    Estate,
    Duchy,
    Province,
    Mine,
    Cellar,
    Market,
    Remodel,
    Smithy,
    Village,
    Woodcutter,
    Workshop,
    Militia,
    Moat,
    Curse,
}

impl Card {
    /// All 17 cards in the line protocol's supply order (dominion-text §2.1).
    pub const SUPPLY: [Card; 17] = [
        Card::Curse,
        Card::Copper,
        Card::Silver,
        Card::Gold,
        Card::Estate,
        Card::Duchy,
        Card::Province,
        Card::Cellar,
        Card::Market,
        Card::Militia,
        Card::Mine,
        Card::Moat,
        Card::Remodel,
        Card::Smithy,
        Card::Village,
        Card::Woodcutter,
        Card::Workshop,
    ];

    /// The ten kingdom cards, alphabetically (dominion-text §2.1, D5).
    pub const KINGDOM: [Card; 10] = [
        Card::Cellar,
        Card::Market,
        Card::Militia,
        Card::Mine,
        Card::Moat,
        Card::Remodel,
        Card::Smithy,
        Card::Village,
        Card::Woodcutter,
        Card::Workshop,
    ];

    /// The card's lowercase name, as both protocols spell it.
    pub fn name(self) -> &'static str {
        match self {
            Card::Curse => "curse",
            Card::Copper => "copper",
            Card::Silver => "silver",
            Card::Gold => "gold",
            Card::Estate => "estate",
            Card::Duchy => "duchy",
            Card::Province => "province",
            Card::Mine => "mine",
            Card::Cellar => "cellar",
            Card::Market => "market",
            Card::Remodel => "remodel",
            Card::Smithy => "smithy",
            Card::Village => "village",
            Card::Woodcutter => "woodcutter",
            Card::Workshop => "workshop",
            Card::Militia => "militia",
            Card::Moat => "moat",
        }
    }

    /// Any of the 17 cards by its exact lowercase name.
    pub fn from_lowercase_name(s: &str) -> Option<Card> {
        Card::SUPPLY.into_iter().find(|c| c.name() == s)
    }

    /// The position of the card's pile in [`Card::SUPPLY`].
    pub fn supply_index(self) -> usize {
        match self {
            Card::Curse => 0,
            Card::Copper => 1,
            Card::Silver => 2,
            Card::Gold => 3,
            Card::Estate => 4,
            Card::Duchy => 5,
            Card::Province => 6,
            Card::Cellar => 7,
            Card::Market => 8,
            Card::Militia => 9,
            Card::Mine => 10,
            Card::Moat => 11,
            Card::Remodel => 12,
            Card::Smithy => 13,
            Card::Village => 14,
            Card::Woodcutter => 15,
            Card::Workshop => 16,
        }
    }

    pub fn is_treasure(self) -> bool {
        matches!(self, Card::Copper | Card::Silver | Card::Gold)
    }

    pub fn is_victory(self) -> bool {
        matches!(self, Card::Estate | Card::Duchy | Card::Province)
    }

    pub fn is_curse(self) -> bool {
        self == Card::Curse
    }

    pub fn is_action(self) -> bool {
        Card::KINGDOM.contains(&self)
    }

    pub fn is_attack(self) -> bool {
        self == Card::Militia
    }

    pub fn is_reaction(self) -> bool {
        self == Card::Moat
    }

    /// The price to buy it (§3.1).
    pub fn cost(self) -> u32 {
        match self {
            Card::Curse | Card::Copper => 0,
            Card::Silver => 3,
            Card::Gold => 6,
            Card::Estate => 2,
            Card::Duchy => 5,
            Card::Province => 8,
            Card::Mine | Card::Market => 5,
            Card::Cellar | Card::Moat => 2,
            Card::Village | Card::Woodcutter | Card::Workshop => 3,
            Card::Remodel | Card::Smithy | Card::Militia => 4,
        }
    }

    /// Money when played (treasures only).
    pub fn value(self) -> u32 {
        match self {
            Card::Copper => 1,
            Card::Silver => 2,
            Card::Gold => 3,
            _ => 0,
        }
    }

    /// Victory points at the end: curse −1.
    pub fn victory_points(self) -> i32 {
        match self {
            Card::Estate => 1,
            Card::Duchy => 3,
            Card::Province => 6,
            Card::Curse => -1,
            _ => 0,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every player's starting deck before its shuffle: 7 coppers, then 3
/// estates (dominion-text §3.2, dominion-sexp §3.2).
pub const STARTING_DECK: [Card; 10] = [
    Card::Copper,
    Card::Copper,
    Card::Copper,
    Card::Copper,
    Card::Copper,
    Card::Copper,
    Card::Copper,
    Card::Estate,
    Card::Estate,
    Card::Estate,
];

/// The cards a player draws after the deal and after every clean-up.
pub const HAND_SIZE: usize = 5;

/// Puts a pile of cards in random order; a seeded `fastrand::Rng` in play,
/// a fixed order in tests, so every game replays from its seed.
pub trait Shuffler {
    fn shuffle(&mut self, cards: &mut [Card]);
}

impl Shuffler for fastrand::Rng {
    fn shuffle(&mut self, cards: &mut [Card]) {
        fastrand::Rng::shuffle(self, cards);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_section_3_1() {
        let row = |c: Card| {
            (
                c.name(),
                c.cost(),
                c.value(),
                c.victory_points(),
                c.is_treasure(),
                c.is_victory(),
                c.is_action(),
            )
        };
        let table: Vec<_> = Card::SUPPLY.into_iter().map(row).collect();
        assert_eq!(
            table,
            vec![
                ("curse", 0, 0, -1, false, false, false),
                ("copper", 0, 1, 0, true, false, false),
                ("silver", 3, 2, 0, true, false, false),
                ("gold", 6, 3, 0, true, false, false),
                ("estate", 2, 0, 1, false, true, false),
                ("duchy", 5, 0, 3, false, true, false),
                ("province", 8, 0, 6, false, true, false),
                ("cellar", 2, 0, 0, false, false, true),
                ("market", 5, 0, 0, false, false, true),
                ("militia", 4, 0, 0, false, false, true),
                ("mine", 5, 0, 0, false, false, true),
                ("moat", 2, 0, 0, false, false, true),
                ("remodel", 4, 0, 0, false, false, true),
                ("smithy", 4, 0, 0, false, false, true),
                ("village", 3, 0, 0, false, false, true),
                ("woodcutter", 3, 0, 0, false, false, true),
                ("workshop", 3, 0, 0, false, false, true),
            ]
        );
        let attacks: Vec<_> = Card::SUPPLY.into_iter().filter(|c| c.is_attack()).collect();
        let reactions: Vec<_> = Card::SUPPLY
            .into_iter()
            .filter(|c| c.is_reaction())
            .collect();
        let curses: Vec<_> = Card::SUPPLY.into_iter().filter(|c| c.is_curse()).collect();
        assert_eq!(attacks, [Card::Militia]);
        assert_eq!(reactions, [Card::Moat]);
        assert_eq!(curses, [Card::Curse]);
    }

    #[test]
    fn names_round_trip_and_index_the_supply() {
        for (i, c) in Card::SUPPLY.into_iter().enumerate() {
            assert_eq!(Card::from_lowercase_name(c.name()), Some(c));
            assert_eq!(c.supply_index(), i);
            assert_eq!(c.to_string(), c.name());
        }
        assert_eq!(Card::from_lowercase_name("Copper"), None);
        assert_eq!(Card::from_lowercase_name("platinum"), None);
    }
}
