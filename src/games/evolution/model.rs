//! Evolution's data definitions (rules digest §2.2): traits, cards, species
//! boards, and their JSON forms. Serialisation follows the reference byte for
//! byte (compact, keys in the fixed order food, body, population, traits,
//! fat-food; `fat-food` only with fat-tissue and a non-empty store). Parsing
//! is by hand from `serde_json::Value`, because the wire forms are
//! positional arrays of tagged pairs, and because a bad value must become a
//! finding, not a panic.

use serde::ser::{SerializeSeq, SerializeTuple};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// Population and body never exceed this; a board has at most 3 traits.
pub const MAX_POPULATION: u32 = 7;
pub const MAX_BODY: u32 = 7;
pub const MAX_TRAITS: usize = 3;

/// The sixteen traits. The declaration order is the alphabetical order of
/// their names, which is the reference deck's order (`Ord` relies on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Trait {
    Ambush,
    Burrowing,
    Carnivore,
    Climbing,
    Cooperation,
    FatTissue,
    Fertile,
    Foraging,
    HardShell,
    Herding,
    Horns,
    LongNeck,
    PackHunting,
    Scavenger,
    Symbiosis,
    WarningCall,
}

impl Trait {
    pub const ALL: [Trait; 16] = [
        Trait::Ambush,
        Trait::Burrowing,
        Trait::Carnivore,
        Trait::Climbing,
        Trait::Cooperation,
        Trait::FatTissue,
        Trait::Fertile,
        Trait::Foraging,
        Trait::HardShell,
        Trait::Herding,
        Trait::Horns,
        Trait::LongNeck,
        Trait::PackHunting,
        Trait::Scavenger,
        Trait::Symbiosis,
        Trait::WarningCall,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Trait::Ambush => "ambush",
            Trait::Burrowing => "burrowing",
            Trait::Carnivore => "carnivore",
            Trait::Climbing => "climbing",
            Trait::Cooperation => "cooperation",
            Trait::FatTissue => "fat-tissue",
            Trait::Fertile => "fertile",
            Trait::Foraging => "foraging",
            Trait::HardShell => "hard-shell",
            Trait::Herding => "herding",
            Trait::Horns => "horns",
            Trait::LongNeck => "long-neck",
            Trait::PackHunting => "pack-hunting",
            Trait::Scavenger => "scavenger",
            Trait::Symbiosis => "symbiosis",
            Trait::WarningCall => "warning-call",
        }
    }

    pub fn from_name(name: &str) -> Option<Trait> {
        Trait::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The food values of this trait's cards: −8…8 for carnivore, −3…3 else.
    pub fn food_range(self) -> std::ops::RangeInclusive<i8> {
        if self == Trait::Carnivore {
            -8..=8
        } else {
            -3..=3
        }
    }
}

impl Serialize for Trait {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A card: its food value and its trait. Ordered like the reference's
/// `<-card` (trait name, then food value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    pub trait_: Trait,
    pub food: i8,
}

impl Card {
    pub fn new(food: i8, trait_: Trait) -> Card {
        Card { trait_, food }
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.food)?;
        t.serialize_element(&self.trait_)?;
        t.end()
    }
}

/// The 122 cards, sorted as the reference's unshuffled deck (top first).
pub fn full_deck() -> Vec<Card> {
    let mut deck: Vec<Card> = Trait::ALL
        .into_iter()
        .flat_map(|t| t.food_range().map(move |f| Card::new(f, t)))
        .collect();
    deck.sort();
    deck
}

/// One species board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Species {
    pub food: u32,
    pub body: u32,
    pub population: u32,
    pub traits: Vec<Trait>,
    /// Food stored by fat-tissue. Kept when the trait is replaced (a
    /// reference quirk), but then neither sent nor used.
    pub fat_food: u32,
}

impl Species {
    /// A fresh board: population 1, body 0, food 0.
    pub fn fresh(traits: Vec<Trait>) -> Species {
        Species {
            population: 1,
            traits,
            ..Species::default()
        }
    }

    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }

    pub fn hungry(&self) -> bool {
        self.food < self.population
    }

    /// How much more fat it can store (0 without fat-tissue).
    pub fn fat_room(&self) -> u32 {
        if self.has(Trait::FatTissue) {
            self.body.saturating_sub(self.fat_food)
        } else {
            0
        }
    }

    /// The reference's comparison of species for its strategy: population,
    /// then food, then body, larger first.
    pub fn size_key(&self) -> (u32, u32, u32) {
        (self.population, self.food, self.body)
    }
}

impl Serialize for Species {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fat = self.has(Trait::FatTissue) && self.fat_food > 0;
        let mut seq = s.serialize_seq(Some(if fat { 5 } else { 4 }))?;
        seq.serialize_element(&("food", self.food))?;
        seq.serialize_element(&("body", self.body))?;
        seq.serialize_element(&("population", self.population))?;
        seq.serialize_element(&("traits", &self.traits))?;
        if fat {
            seq.serialize_element(&("fat-food", self.fat_food))?;
        }
        seq.end()
    }
}

/// Why a JSON value is not the data definition it should be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn bad<T>(what: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(what.into()))
}

/// A JSON integer ≥ 0. `-0` is tolerated as 0 (serde_json reads it as the
/// float −0.0, which is how it is told from `0.0`; `-0.0` slips through too).
pub fn natural(v: &Value) -> Result<u64, ParseError> {
    if let Some(n) = v.as_u64() {
        return Ok(n);
    }
    match v.as_f64() {
        Some(f) if f == 0.0 && f.is_sign_negative() => Ok(0),
        _ => bad(format!("{v} is not a natural number")),
    }
}

fn small(v: &Value, max: u32, what: &str) -> Result<u32, ParseError> {
    match natural(v)? {
        n if n <= max as u64 => Ok(n as u32),
        n => bad(format!("{what} {n} is above {max}")),
    }
}

pub fn parse_trait(v: &Value) -> Result<Trait, ParseError> {
    v.as_str()
        .and_then(Trait::from_name)
        .map_or_else(|| bad(format!("{v} is not a trait")), Ok)
}

pub fn parse_card(v: &Value) -> Result<Card, ParseError> {
    let Some([food, t]) = v.as_array().map(Vec::as_slice) else {
        return bad(format!("{v} is not a card [food, trait]"));
    };
    let t = parse_trait(t)?;
    let food = food
        .as_i64()
        .filter(|f| t.food_range().contains(&(*f as i8)) && (-8..=8).contains(f));
    match food {
        Some(f) => Ok(Card::new(f as i8, t)),
        None => bad(format!("{v} is not one of the 122 cards")),
    }
}

pub fn parse_cards(v: &Value) -> Result<Vec<Card>, ParseError> {
    let Some(items) = v.as_array() else {
        return bad(format!("{v} is not a list of cards"));
    };
    items.iter().map(parse_card).collect()
}

/// The value of the `[name, value]` pair at `v[i]`.
fn field<'a>(v: &'a [Value], i: usize, name: &str) -> Result<&'a Value, ParseError> {
    match v.get(i).and_then(Value::as_array).map(Vec::as_slice) {
        Some([Value::String(n), value]) if n == name => Ok(value),
        _ => bad(format!("entry {i} of a species is not [\"{name}\", …]")),
    }
}

/// A Species or Species+ (an explicit `["fat-food", 0]` is accepted, as the
/// fixtures carry it).
pub fn parse_species(v: &Value) -> Result<Species, ParseError> {
    let Some(items) = v.as_array() else {
        return bad(format!("{v} is not a species"));
    };
    if items.len() != 4 && items.len() != 5 {
        return bad("a species has 4 or 5 entries");
    }
    let food = small(field(items, 0, "food")?, MAX_POPULATION, "food")?;
    let body = small(field(items, 1, "body")?, MAX_BODY, "body")?;
    let population = small(field(items, 2, "population")?, MAX_POPULATION, "population")?;
    let Some(trait_values) = field(items, 3, "traits")?.as_array() else {
        return bad("traits is not a list");
    };
    let traits = trait_values
        .iter()
        .map(parse_trait)
        .collect::<Result<Vec<_>, _>>()?;
    let fat_food = if items.len() == 5 {
        small(field(items, 4, "fat-food")?, MAX_BODY, "fat-food")?
    } else {
        0
    };
    if population == 0 || food > population {
        return bad(format!(
            "population {population} with food {food} is not a living species"
        ));
    }
    if traits.len() > MAX_TRAITS {
        return bad("more than 3 traits");
    }
    Ok(Species {
        food,
        body,
        population,
        traits,
        fat_food,
    })
}

pub fn parse_boards(v: &Value) -> Result<Vec<Species>, ParseError> {
    let Some(items) = v.as_array() else {
        return bad(format!("{v} is not a list of species"));
    };
    items.iter().map(parse_species).collect()
}

/// Compact JSON as the reference writes it (without the trailing space).
pub fn to_compact<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_deck_has_122_distinct_cards_in_the_reference_order() {
        let deck = full_deck();
        assert_eq!(deck.len(), 122);
        let set: std::collections::HashSet<_> = deck.iter().collect();
        assert_eq!(set.len(), 122);
        assert_eq!(deck[0], Card::new(-3, Trait::Ambush));
        assert_eq!(deck[7], Card::new(-3, Trait::Burrowing));
        assert_eq!(deck[14], Card::new(-8, Trait::Carnivore));
        assert_eq!(deck[121], Card::new(3, Trait::WarningCall));
        let mut names: Vec<&str> = Trait::ALL.iter().map(|t| t.name()).collect();
        names.sort_unstable();
        assert_eq!(names, Trait::ALL.map(|t| t.name()));
    }

    #[test]
    fn species_serialise_like_the_reference() {
        let mut s = Species::fresh(vec![Trait::FatTissue, Trait::Carnivore]);
        assert_eq!(
            to_compact(&s),
            r#"[["food",0],["body",0],["population",1],["traits",["fat-tissue","carnivore"]]]"#
        );
        s.fat_food = 2;
        s.body = 3;
        assert!(to_compact(&s).ends_with(r#"["fat-food",2]]"#));
        // Without fat-tissue the store is not sent (reference quirk, §3.9).
        s.traits = vec![Trait::Horns];
        assert!(!to_compact(&s).contains("fat-food"));
        assert_eq!(
            to_compact(&Card::new(-3, Trait::LongNeck)),
            r#"[-3,"long-neck"]"#
        );
    }

    #[test]
    fn species_round_trip_and_reject_bad_forms() {
        let mut s = Species::fresh(vec![Trait::FatTissue]);
        s.body = 4;
        s.fat_food = 3;
        let v: Value = serde_json::from_str(&to_compact(&s)).unwrap();
        assert_eq!(parse_species(&v), Ok(s));
        let zero_fat = json!([
            ["food", 0],
            ["body", 1],
            ["population", 1],
            ["traits", []],
            ["fat-food", 0]
        ]);
        assert_eq!(parse_species(&zero_fat).unwrap().fat_food, 0);
        for bad in [
            json!([["body", 0], ["food", 0], ["population", 1], ["traits", []]]),
            json!([["food", 2], ["body", 0], ["population", 1], ["traits", []]]),
            json!([["food", 0], ["body", 8], ["population", 1], ["traits", []]]),
            json!([["food", 0], ["body", 0], ["population", 0], ["traits", []]]),
            json!([
                ["food", 0],
                ["body", 0],
                ["population", 1],
                ["traits", ["wings"]]
            ]),
            json!({"food": 0}),
        ] {
            assert!(parse_species(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn cards_must_be_in_the_deck() {
        assert_eq!(
            parse_card(&json!([8, "carnivore"])),
            Ok(Card::new(8, Trait::Carnivore))
        );
        assert!(parse_card(&json!([4, "horns"])).is_err());
        assert!(parse_card(&json!([9, "carnivore"])).is_err());
        assert!(parse_card(&json!([300, "carnivore"])).is_err());
        assert!(parse_card(&json!(["horns", 1])).is_err());
        assert_eq!(natural(&json!(-0.0)), Ok(0));
        assert!(natural(&json!(0.0)).is_err());
        assert!(natural(&json!(-1)).is_err());
        assert!(natural(&json!(1.5)).is_err());
    }
}
