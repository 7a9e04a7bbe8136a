//! The dealer's messages (rules digest §2.1, Appendix A), serialised as the
//! reference writes them: compact JSON, fields in the fixed order, followed
//! by exactly one space byte.

use super::model::{Card, Species};
use serde::Serialize;

/// `start`: `[wh, bag, boards, hand]` (the watering hole comes first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Start(pub u32, pub u32, pub Vec<Species>, pub Vec<Card>);

/// `choose`: `[before, after]`; `after` begins with the asker's own boards
/// (the reference's form, D2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Choose(pub Vec<Vec<Species>>, pub Vec<Vec<Species>>);

/// `feedNext`: State `[bag, boards, hand, wh, others]` (bag first, watering
/// hole fourth).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct State(
    pub u32,
    pub Vec<Species>,
    pub Vec<Card>,
    pub u32,
    pub Vec<Vec<Species>>,
);

/// The sign-up acknowledgement.
pub const OK: &str = "\"ok\"";

/// A message's bytes on the wire: compact JSON and one space.
pub fn wire<T: Serialize>(message: &T) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(message).unwrap_or_default();
    bytes.push(b' ');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::evolution::model::Trait;

    #[test]
    fn messages_are_compact_with_one_space_in_the_reference_field_order() {
        let board = vec![Species::fresh(Vec::new())];
        let hand: Vec<Card> = (-2..=1).map(|f| Card::new(f, Trait::Burrowing)).collect();
        assert_eq!(
            wire(&Start(0, 0, board.clone(), hand.clone())),
            br#"[0,0,[[["food",0],["body",0],["population",1],["traits",[]]]],[[-2,"burrowing"],[-1,"burrowing"],[0,"burrowing"],[1,"burrowing"]]] "#
        );
        assert_eq!(
            wire(&Choose(vec![], vec![board.clone()])),
            br#"[[],[[[["food",0],["body",0],["population",1],["traits",[]]]]]] "#
        );
        let state = wire(&State(5, vec![], hand[..1].to_vec(), 2, vec![vec![]]));
        assert_eq!(state, br#"[5,[],[[-2,"burrowing"]],2,[[]]] "#);
        assert_eq!(wire(&"ok"), br#""ok" "#);
    }
}
