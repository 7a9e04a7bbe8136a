//! The 17 supply card names of dominion-text.md §3.1, in supply order.
//!
//! The shared Dominion `Card` enum (`dominion_sexp::messages::Card`) holds
//! the 16 non-curse cards; the line protocol also names `curse` (a supply
//! pile that may be bought or gained, D26). [`SupplyCard`] adds it without
//! touching the shared model; once that model has a curse, this type can
//! become an alias of it.

use crate::games::dominion_sexp::messages::Card;
use std::fmt;

/// One of the 17 card names a line may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SupplyCard {
    Curse,
    Card(Card),
}

/// The supply piles in the order of the `supply` line (§2.1).
pub const SUPPLY_ORDER: [SupplyCard; 17] = [
    SupplyCard::Curse,
    SupplyCard::Card(Card::Copper),
    SupplyCard::Card(Card::Silver),
    SupplyCard::Card(Card::Gold),
    SupplyCard::Card(Card::Estate),
    SupplyCard::Card(Card::Duchy),
    SupplyCard::Card(Card::Province),
    SupplyCard::Card(Card::Cellar),
    SupplyCard::Card(Card::Market),
    SupplyCard::Card(Card::Militia),
    SupplyCard::Card(Card::Mine),
    SupplyCard::Card(Card::Moat),
    SupplyCard::Card(Card::Remodel),
    SupplyCard::Card(Card::Smithy),
    SupplyCard::Card(Card::Village),
    SupplyCard::Card(Card::Woodcutter),
    SupplyCard::Card(Card::Workshop),
];

/// The ten kingdom cards, alphabetically, as `game kingdom-cards` lists them.
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

impl SupplyCard {
    /// The lowercase name used on the wire.
    pub fn name(self) -> &'static str {
        match self {
            SupplyCard::Curse => "curse",
            SupplyCard::Card(c) => c.name(),
        }
    }

    /// Exactly one of the 17 names (lowercase; `Copper` is not a card).
    pub fn from_name(s: &str) -> Option<SupplyCard> {
        SUPPLY_ORDER.into_iter().find(|c| c.name() == s)
    }

    /// The card whose name differs from `s` only in ASCII case, if `s` is
    /// not itself a name (for `grammar.case`).
    pub fn from_name_ignoring_case(s: &str) -> Option<SupplyCard> {
        SUPPLY_ORDER
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s))
    }

    /// Its position in [`SUPPLY_ORDER`].
    pub fn pile_index(self) -> usize {
        SUPPLY_ORDER
            .iter()
            .position(|c| *c == self)
            .expect("every SupplyCard is in SUPPLY_ORDER")
    }
}

impl From<Card> for SupplyCard {
    fn from(c: Card) -> SupplyCard {
        SupplyCard::Card(c)
    }
}

impl fmt::Display for SupplyCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_17_names_in_supply_order() {
        let names: Vec<&str> = SUPPLY_ORDER.iter().map(|c| c.name()).collect();
        assert_eq!(
            names.join(" "),
            "curse copper silver gold estate duchy province cellar market militia mine \
             moat remodel smithy village woodcutter workshop"
        );
        for (i, c) in SUPPLY_ORDER.iter().enumerate() {
            assert_eq!(SupplyCard::from_name(c.name()), Some(*c));
            assert_eq!(c.pile_index(), i);
        }
        // Every card of the shared model has a pile here.
        for c in Card::ALL {
            assert!(SUPPLY_ORDER.contains(&SupplyCard::Card(c)), "{c}");
        }
    }

    #[test]
    fn names_are_exact_and_lowercase() {
        assert_eq!(SupplyCard::from_name("Copper"), None);
        assert_eq!(
            SupplyCard::from_name_ignoring_case("CURSE"),
            Some(SupplyCard::Curse)
        );
        assert_eq!(SupplyCard::from_name("platinum"), None);
        assert_eq!(SupplyCard::from_name_ignoring_case("platinum"), None);
        let kingdom: Vec<&str> = KINGDOM.iter().map(|c| c.name()).collect();
        let mut sorted = kingdom.clone();
        sorted.sort_unstable();
        assert_eq!(kingdom, sorted);
    }
}
