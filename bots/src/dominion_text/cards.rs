//! The 17 supply cards of `shared/rules/dominion-text.md` §3.1, as a bot
//! author would copy them from the document, and the choices the sample
//! player makes with them. Nothing here knows about the wire.

/// What a card is, as far as the player's choices go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Curse,
    Treasure,
    Victory,
    Action,
}

/// The supply piles in the order the `supply` line lists them (§2.1), with
/// cost and kind.
pub const SUPPLY: [(&str, u32, Kind); 17] = [
    ("curse", 0, Kind::Curse),
    ("copper", 0, Kind::Treasure),
    ("silver", 3, Kind::Treasure),
    ("gold", 6, Kind::Treasure),
    ("estate", 2, Kind::Victory),
    ("duchy", 5, Kind::Victory),
    ("province", 8, Kind::Victory),
    ("cellar", 2, Kind::Action),
    ("market", 5, Kind::Action),
    ("militia", 4, Kind::Action),
    ("mine", 5, Kind::Action),
    ("moat", 2, Kind::Action),
    ("remodel", 4, Kind::Action),
    ("smithy", 4, Kind::Action),
    ("village", 3, Kind::Action),
    ("woodcutter", 3, Kind::Action),
    ("workshop", 3, Kind::Action),
];

pub fn cost(card: &str) -> u32 {
    SUPPLY
        .iter()
        .find(|(name, _, _)| *name == card)
        .map_or(u32::MAX, |(_, cost, _)| *cost)
}

pub fn kind(card: &str) -> Option<Kind> {
    SUPPLY
        .iter()
        .find(|(name, _, _)| *name == card)
        .map(|(_, _, kind)| *kind)
}

pub fn is_action(card: &str) -> bool {
    kind(card) == Some(Kind::Action)
}

pub fn is_treasure(card: &str) -> bool {
    kind(card) == Some(Kind::Treasure)
}

/// Money a treasure brings when the buy plays it (§3.4).
pub fn treasure_value(card: &str) -> u32 {
    match card {
        "copper" => 1,
        "silver" => 2,
        "gold" => 3,
        _ => 0,
    }
}

/// Which card to gain when several are allowed: best first. Curse is last:
/// legal to gain (D26), never wanted.
pub const GAIN_PREFERENCE: [&str; 17] = [
    "province",
    "gold",
    "market",
    "mine",
    "smithy",
    "militia",
    "remodel",
    "silver",
    "village",
    "woodcutter",
    "workshop",
    "duchy",
    "cellar",
    "moat",
    "estate",
    "copper",
    "curse",
];

/// Which cards to give up first, to militia or to remodel: worst first.
pub const DISCARD_PREFERENCE: [&str; 17] = [
    "curse",
    "estate",
    "duchy",
    "province",
    "copper",
    "cellar",
    "moat",
    "workshop",
    "woodcutter",
    "village",
    "remodel",
    "militia",
    "smithy",
    "silver",
    "market",
    "mine",
    "gold",
];

/// Non-terminal actions first (they give actions back), then the terminal
/// ones; every kingdom card is on the list, so each gets played when drawn.
pub const PLAY_PREFERENCE: [&str; 10] = [
    "village",
    "market",
    "cellar",
    "militia",
    "smithy",
    "mine",
    "moat",
    "woodcutter",
    "remodel",
    "workshop",
];

/// Remove the first occurrence of `card` from `hand` (hands are multisets,
/// D28); false if it was not there.
pub fn take(hand: &mut Vec<String>, card: &str) -> bool {
    match hand.iter().position(|c| c == card) {
        Some(i) => {
            hand.remove(i);
            true
        }
        None => false,
    }
}

/// `n` cards of `hand` to discard, worst first.
pub fn worst_cards(hand: &[String], n: usize) -> Vec<String> {
    let mut sorted: Vec<String> = hand.to_vec();
    sorted.sort_by_key(|c| {
        DISCARD_PREFERENCE
            .iter()
            .position(|p| p == c)
            .unwrap_or(DISCARD_PREFERENCE.len())
    });
    sorted.truncate(n);
    sorted
}
