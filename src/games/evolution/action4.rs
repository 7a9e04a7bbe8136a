//! Action4, the reply to `choose` (rules digest §2.6, §3.4): its shape, its
//! legality in the reference's order, and its application.

use super::catalogue as c;
use super::model::{Card, MAX_BODY, MAX_POPULATION, Species, Trait};
use crate::verdict::RuleInfo;
use serde::Serialize;
use serde_json::Value;

/// A rule a reply breaks, with what exactly is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static RuleInfo,
    pub detail: String,
}

impl Finding {
    pub fn new(rule: &'static RuleInfo, detail: impl Into<String>) -> Finding {
        Finding {
            rule,
            detail: detail.into(),
        }
    }
}

/// `[fc, [GP…], [GB…], [BT…], [RT…]]`. Indices are kept as `u64` so that a
/// huge index is a range failure, not an overflow.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Action4 {
    pub food_card: u64,
    /// `[board, card]`: grow population.
    pub grow_population: Vec<(u64, u64)>,
    /// `[board, card]`: grow body.
    pub grow_body: Vec<(u64, u64)>,
    /// `[pay, trait cards…]`: a new board at the right end.
    pub board_trades: Vec<Vec<u64>>,
    /// `[board, position, card]`: replace a trait.
    pub replace_traits: Vec<(u64, u64, u64)>,
}

fn shape(detail: impl Into<String>) -> Finding {
    Finding::new(&c::CHOOSE_SHAPE, detail)
}

/// A Natural where the grammar wants one; other numbers are not-natural,
/// anything else is a shape failure.
fn index(v: &Value, what: &str) -> Result<u64, Finding> {
    match v {
        Value::Number(_) => super::model::natural(v)
            .map_err(|_| Finding::new(&c::VALUE_NOT_NATURAL, format!("{what} is {v}"))),
        _ => Err(shape(format!("{what} is {v}, not a natural number"))),
    }
}

fn list<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, Finding> {
    v.as_array()
        .ok_or_else(|| shape(format!("{what} is {v}, not a list")))
}

fn pairs(v: &Value, what: &str) -> Result<Vec<(u64, u64)>, Finding> {
    list(v, what)?
        .iter()
        .map(|item| match item.as_array().map(Vec::as_slice) {
            Some([Value::String(tag), _, _]) if tag == "population" || tag == "body" => {
                Err(Finding::new(
                    &c::CHOOSE_TAGGED_GROWTH,
                    format!("{what} entry {item} uses the older tagged form; write [board, card]"),
                ))
            }
            Some([b, card]) => Ok((index(b, "a board index")?, index(card, "a card index")?)),
            _ => Err(shape(format!("{what} entry {item} is not [board, card]"))),
        })
        .collect()
}

impl Action4 {
    /// The shape check (framing is the reader's business).
    pub fn parse(v: &Value) -> Result<Action4, Finding> {
        let Some([fc, gp, gb, bt, rt]) = v.as_array().map(Vec::as_slice) else {
            return Err(shape(format!(
                "{} is not [food card, [GP…], [GB…], [BT…], [RT…]]",
                abbreviate(v)
            )));
        };
        let food_card = index(fc, "the food card")?;
        let grow_population = pairs(gp, "GP")?;
        let grow_body = pairs(gb, "GB")?;
        let board_trades = list(bt, "BT")?
            .iter()
            .map(|item| match item.as_array() {
                Some(cards) if (1..=4).contains(&cards.len()) => cards
                    .iter()
                    .map(|x| index(x, "a BT card index"))
                    .collect::<Result<Vec<_>, _>>(),
                _ => Err(shape(format!(
                    "BT entry {item} is not [pay, trait cards (0–3)]"
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let replace_traits = list(rt, "RT")?
            .iter()
            .map(|item| match item.as_array().map(Vec::as_slice) {
                Some([b, i, card]) => Ok((
                    index(b, "an RT board index")?,
                    index(i, "an RT position")?,
                    index(card, "an RT card index")?,
                )),
                _ => Err(shape(format!(
                    "RT entry {item} is not [board, position, card]"
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Action4 {
            food_card,
            grow_population,
            grow_body,
            board_trades,
            replace_traits,
        })
    }

    /// The JSON value of the remote protocol.
    pub fn to_json(&self) -> Value {
        serde_json::json!([
            self.food_card,
            self.grow_population
                .iter()
                .map(|(b, c)| [b, c])
                .collect::<Vec<_>>(),
            self.grow_body
                .iter()
                .map(|(b, c)| [b, c])
                .collect::<Vec<_>>(),
            self.board_trades,
            self.replace_traits
                .iter()
                .map(|(b, i, c)| [b, i, c])
                .collect::<Vec<_>>(),
        ])
    }

    /// Every card index, in the reference's order (fc, GP, GB, BT, RT).
    pub fn card_indices(&self) -> Vec<u64> {
        std::iter::once(self.food_card)
            .chain(self.grow_population.iter().map(|g| g.1))
            .chain(self.grow_body.iter().map(|g| g.1))
            .chain(self.board_trades.iter().flatten().copied())
            .chain(self.replace_traits.iter().map(|r| r.2))
            .collect()
    }

    /// Legality against the player's boards and the hand of its latest
    /// `start` (§3.4, conditions 1–6 in order, then D11).
    pub fn validate(&self, boards: &[Species], hand: &[Card]) -> Result<(), Finding> {
        let cards = self.card_indices();
        if let Some(bad) = cards.iter().find(|&&i| i >= hand.len() as u64) {
            return Err(Finding::new(
                &c::CHOOSE_CARD_OUT_OF_RANGE,
                format!("card index {bad}, but the hand has {} cards", hand.len()),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(dup) = cards.iter().find(|i| !seen.insert(**i)) {
            return Err(Finding::new(
                &c::CHOOSE_CARD_REUSED,
                format!("card index {dup} is used twice"),
            ));
        }
        let card = |i: u64| hand[i as usize];
        let existing = boards.len() as u64;
        let total = existing + self.board_trades.len() as u64;
        let board_refs = self
            .grow_population
            .iter()
            .map(|g| g.0)
            .chain(self.grow_body.iter().map(|g| g.0))
            .chain(self.replace_traits.iter().map(|r| r.0));
        for b in board_refs {
            if b >= total {
                return Err(Finding::new(
                    &c::CHOOSE_BOARD_OUT_OF_RANGE,
                    format!(
                        "board {b}, but there are {existing} boards and {} new ones",
                        self.board_trades.len()
                    ),
                ));
            }
        }
        for b in 0..total as usize {
            let (population, body) = boards.get(b).map_or((1, 1), |s| (s.population, s.body));
            let gps = self
                .grow_population
                .iter()
                .filter(|g| g.0 == b as u64)
                .count() as u32;
            if population + gps > MAX_POPULATION {
                return Err(Finding::new(
                    &c::CHOOSE_POPULATION_OVERFLOW,
                    format!("board {b}: population {population} + {gps} GPs is above 7"),
                ));
            }
            // A new board counts as body 1 here: the reference allows at
            // most 6 GBs on it (D13).
            let gbs = self.grow_body.iter().filter(|g| g.0 == b as u64).count() as u32;
            if body + gbs > MAX_BODY {
                let note = if b as u64 >= existing {
                    " (reference limit: at most 6 GBs on a board created in the same reply)"
                } else {
                    ""
                };
                return Err(Finding::new(
                    &c::CHOOSE_BODY_OVERFLOW,
                    format!(
                        "board {b}: body {} + {gbs} GBs is above 7{note}",
                        body.min(7)
                    ),
                ));
            }
        }
        let mut new_traits = Vec::new();
        for (k, bt) in self.board_trades.iter().enumerate() {
            let traits: Vec<Trait> = bt[1..].iter().map(|&i| card(i).trait_).collect();
            if has_duplicates(&traits) {
                return Err(Finding::new(
                    &c::CHOOSE_DUPLICATE_TRAIT,
                    format!("BT {k} brings the same trait twice"),
                ));
            }
            new_traits.push(traits);
        }
        let traits_before = |b: u64| -> &Vec<Trait> {
            match boards.get(b as usize) {
                Some(s) => &s.traits,
                None => &new_traits[(b - existing) as usize],
            }
        };
        for &(b, i, cd) in &self.replace_traits {
            let before = traits_before(b);
            if i >= before.len() as u64 {
                return Err(Finding::new(
                    &c::CHOOSE_TRAIT_POSITION,
                    format!(
                        "board {b} has {} traits, so there is no position {i} (traits can be replaced, not added)",
                        before.len()
                    ),
                ));
            }
            let mut after = before.clone();
            after[i as usize] = card(cd).trait_;
            if has_duplicates(&after) {
                return Err(Finding::new(
                    &c::CHOOSE_DUPLICATE_TRAIT,
                    format!(
                        "RT [{b},{i},{cd}] puts {} on board {b}, which has it at another position",
                        card(cd).trait_.name()
                    ),
                ));
            }
        }
        // D11: RTs that together leave a duplicate (each passed alone).
        for b in 0..total {
            let mut traits = traits_before(b).clone();
            for &(rb, i, cd) in &self.replace_traits {
                if rb == b {
                    traits[i as usize] = card(cd).trait_;
                }
            }
            if has_duplicates(&traits) {
                return Err(Finding::new(
                    &c::CHOOSE_DUPLICATE_TRAIT,
                    format!("the RTs together leave board {b} with a trait twice"),
                ));
            }
        }
        Ok(())
    }

    /// Apply a validated Action4 (§3.4, application 1–5) and return the food
    /// card, whose value the caller adds to the watering hole.
    pub fn apply(&self, boards: &mut Vec<Species>, hand: &mut Vec<Card>) -> Card {
        let card = |i: u64| hand[i as usize];
        for bt in &self.board_trades {
            boards.push(Species::fresh(
                bt[1..].iter().map(|&i| card(i).trait_).collect(),
            ));
        }
        for &(b, i, cd) in &self.replace_traits {
            boards[b as usize].traits[i as usize] = card(cd).trait_;
        }
        for &(b, _) in &self.grow_population {
            boards[b as usize].population += 1;
        }
        for &(b, _) in &self.grow_body {
            boards[b as usize].body += 1;
        }
        let food = card(self.food_card);
        let used: std::collections::HashSet<u64> = self.card_indices().into_iter().collect();
        let mut i = 0;
        hand.retain(|_| {
            let keep = !used.contains(&i);
            i += 1;
            keep
        });
        food
    }
}

fn has_duplicates(traits: &[Trait]) -> bool {
    traits
        .iter()
        .enumerate()
        .any(|(i, t)| traits[i + 1..].contains(t))
}

/// A value for a message, cut to a readable length.
pub fn abbreviate(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
#[path = "action4_tests.rs"]
mod tests;
