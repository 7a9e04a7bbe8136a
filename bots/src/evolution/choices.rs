//! The replies: the course strategy (rules digest §3.12, the library's
//! `strategy`), and each flaw's one change to it.

use super::Flaw;
use protocheck::games::evolution::action4::Action4;
use protocheck::games::evolution::engine::FeedOption;
use protocheck::games::evolution::model::{Card, Species, Trait};
use protocheck::games::evolution::strategy::{self, FatRequest};
use serde_json::{Value, json};

/// The reply to `choose` for the latest `start`'s `boards` and `hand`.
pub fn action4(boards: &[Species], hand: &[Card], flaw: Flaw) -> Value {
    // Hand positions sorted by trait then food, as the strategy does.
    let mut sorted: Vec<u64> = (0..hand.len() as u64).collect();
    sorted.sort_by_key(|&i| hand[i as usize]);
    let new_board = boards.len() as u64;
    let action = match flaw {
        // The food card stays in the list the board is built from.
        Flaw::FoodCardReused => sorted.first().map(|&fc| {
            let mut rest = vec![fc];
            rest.extend_from_slice(&sorted[1..]);
            build(fc, &rest, new_board, 1, Growth::PopulationFirst)
        }),
        Flaw::RtAppends => sorted
            .split_first()
            .map(|(&fc, rest)| build(fc, rest, new_board, 1, Growth::AppendTraitFirst)),
        Flaw::UncheckedTraits => sorted
            .split_first()
            .map(|(&fc, rest)| build(fc, rest, new_board, 3, Growth::PopulationFirst)),
        _ => strategy::choose(boards, hand),
    };
    let Some(mut action) = action else {
        // An empty hand has no legal reply; a dealer never asks then.
        return json!([0, [], [], [], []]);
    };
    match flaw {
        Flaw::LateBlunder
            if hand
                .iter()
                .any(|c| c.trait_ == Trait::Carnivore && c.food >= 7) =>
        {
            action.food_card = hand.len() as u64;
        }
        Flaw::OneBasedCards => {
            action.food_card += 1;
            for g in action
                .grow_population
                .iter_mut()
                .chain(&mut action.grow_body)
            {
                g.1 += 1;
            }
            for c in action.board_trades.iter_mut().flatten() {
                *c += 1;
            }
            for r in &mut action.replace_traits {
                r.2 += 1;
            }
        }
        Flaw::NewBoardOffByOne => {
            let shift = |b: &mut u64| {
                if *b >= new_board {
                    *b += 1;
                }
            };
            for g in action
                .grow_population
                .iter_mut()
                .chain(&mut action.grow_body)
            {
                shift(&mut g.0);
            }
            for r in &mut action.replace_traits {
                shift(&mut r.0);
            }
        }
        _ => {}
    }
    let mut reply = action.to_json();
    match flaw {
        Flaw::TaggedGrowth => {
            for (slot, tag) in [(1, "population"), (2, "body")] {
                let tagged: Vec<Value> = action_pairs(slot, &action)
                    .into_iter()
                    .map(|(b, c)| json!([tag, b, c]))
                    .collect();
                reply[slot] = Value::Array(tagged);
            }
        }
        Flaw::FloatIndex => reply[0] = json!(action.food_card as f64),
        _ => {}
    }
    reply
}

fn action_pairs(slot: usize, action: &Action4) -> Vec<(u64, u64)> {
    if slot == 1 {
        action.grow_population.clone()
    } else {
        action.grow_body.clone()
    }
}

/// What the cards after the new board's trait cards are spent on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Growth {
    /// GP, GB, then RT at position 0 (the strategy's order).
    PopulationFirst,
    /// RT at position "number of traits" (an append), then GP, GB.
    AppendTraitFirst,
}

/// food card `fc`; one BT paid with `cards[0]` carrying up to
/// `trait_cards` traits; the next cards grow the new board.
fn build(fc: u64, cards: &[u64], new_board: u64, trait_cards: usize, growth: Growth) -> Action4 {
    let mut action = Action4 {
        food_card: fc,
        ..Action4::default()
    };
    if cards.len() < 2 {
        return action;
    }
    let traits_end = (1 + trait_cards).min(cards.len());
    action.board_trades.push(cards[..traits_end].to_vec());
    let mut next = cards[traits_end..].iter().copied();
    if growth == Growth::AppendTraitFirst
        && let Some(c) = next.next()
    {
        action
            .replace_traits
            .push((new_board, (traits_end - 1) as u64, c));
    }
    if let Some(c) = next.next() {
        action.grow_population.push((new_board, c));
    }
    if let Some(c) = next.next() {
        action.grow_body.push((new_board, c));
    }
    if growth == Growth::PopulationFirst
        && let Some(c) = next.next()
    {
        action.replace_traits.push((new_board, 0, c));
    }
    action
}

/// Indices of `boards` that pass `keep`, largest first (population, food,
/// body); equal species keep their order.
fn largest(boards: &[Species], keep: impl Fn(&Species) -> bool) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..boards.len()).filter(|&i| keep(&boards[i])).collect();
    indices.sort_by(|&a, &b| boards[b].size_key().cmp(&boards[a].size_key()));
    indices
}

/// The reply to `feedNext` for the State's own `boards` and `others`.
pub fn feeding(boards: &[Species], others: &[Vec<Species>], flaw: Flaw) -> Value {
    let other_refs: Vec<&[Species]> = others.iter().map(Vec::as_slice).collect();
    let Some(choice) = strategy::feed(boards, &other_refs, FatRequest::Room) else {
        // Nothing to feed: the dealer never asks then (§3.5); the document's
        // "decline" is all that is left.
        return Value::Bool(false);
    };
    let is_fat = matches!(choice, FeedOption::Fat { .. });
    let choice = match flaw {
        Flaw::FeedsCarnivore if !is_fat => largest(boards, Species::hungry)
            .first()
            .map_or(choice, |&s| FeedOption::Vegetarian(s)),
        Flaw::FeedsFull if !is_fat => largest(boards, |s| !s.has(Trait::Carnivore))
            .first()
            .map_or(choice, |&s| FeedOption::Vegetarian(s)),
        Flaw::FatIgnoresStore => match choice {
            FeedOption::Fat { species, .. } => FeedOption::Fat {
                species,
                amount: boards[species].body,
            },
            other => other,
        },
        Flaw::DeclinesAttack if matches!(choice, FeedOption::Attack { .. }) => {
            return Value::Bool(false);
        }
        Flaw::AttacksUnchecked if matches!(choice, FeedOption::Attack { .. }) => {
            unchecked_attack(boards, others).unwrap_or(choice)
        }
        Flaw::WrapsVegetarian => {
            if let FeedOption::Vegetarian(s) = choice {
                return json!([s]);
            }
            choice
        }
        _ => choice,
    };
    choice.to_json()
}

/// The largest hungry carnivore attacks the largest species of any other
/// player, listed player by player and right to left (the strategy's
/// listing), with no attack test at all.
fn unchecked_attack(boards: &[Species], others: &[Vec<Species>]) -> Option<FeedOption> {
    let attacker = *largest(boards, |s| s.hungry() && s.has(Trait::Carnivore)).first()?;
    let mut best: Option<(usize, usize)> = None;
    for (p, other) in others.iter().enumerate() {
        for t in (0..other.len()).rev() {
            if best.is_none_or(|(bp, bt)| other[t].size_key() > others[bp][bt].size_key()) {
                best = Some((p, t));
            }
        }
    }
    let (player, target) = best?;
    Some(FeedOption::Attack {
        attacker,
        player,
        target,
    })
}
