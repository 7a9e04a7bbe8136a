//! The line protocol's cards are the shared Dominion card model
//! ([`crate::games::dominion::Card`]): all 17 supply names, curse included,
//! in the order of the `supply` line (§2.1), and the ten kingdom cards.

pub use crate::games::dominion::Card;

/// The supply piles in the order of the `supply` line (§2.1).
pub const SUPPLY_ORDER: [Card; 17] = Card::SUPPLY;

/// The ten kingdom cards, alphabetically, as `game kingdom-cards` lists them.
pub const KINGDOM: [Card; 10] = Card::KINGDOM;

/// The card whose name differs from `s` only in ASCII case, if any (for
/// `grammar.case`; an exact name is found with
/// [`Card::from_lowercase_name`]).
pub fn from_name_ignoring_case(s: &str) -> Option<Card> {
    SUPPLY_ORDER
        .into_iter()
        .find(|c| c.name().eq_ignore_ascii_case(s))
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
            assert_eq!(Card::from_lowercase_name(c.name()), Some(*c));
            assert_eq!(c.supply_index(), i);
        }
    }

    #[test]
    fn names_are_exact_and_lowercase() {
        assert_eq!(Card::from_lowercase_name("Copper"), None);
        assert_eq!(from_name_ignoring_case("CURSE"), Some(Card::Curse));
        assert_eq!(Card::from_lowercase_name("platinum"), None);
        assert_eq!(from_name_ignoring_case("platinum"), None);
        let kingdom: Vec<&str> = KINGDOM.iter().map(|c| c.name()).collect();
        let mut sorted = kingdom.clone();
        sorted.sort_unstable();
        assert_eq!(kingdom, sorted);
    }
}
