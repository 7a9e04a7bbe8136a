//! The reference strategy (rules digest §3.12), for built-in opponents and
//! for matching the course fixtures (`xsilly`, `xfeed`, and the choices
//! inside `xstep`/`xstep4`). Its moves are always legal.

use super::action4::Action4;
use super::engine::{FeedOption, targets};
use super::model::{Card, Species, Trait};

/// `choose`: sort the hand by trait then food (keeping original indices);
/// the first card is the food card, the next two a BT for a new board, then
/// if cards remain a GP, a GB and an RT at position 0 on that board.
pub fn choose(boards: &[Species], hand: &[Card]) -> Option<Action4> {
    let mut order: Vec<usize> = (0..hand.len()).collect();
    order.sort_by_key(|&i| hand[i]);
    choose_in(boards, order)
}

/// `choose`, but the card with the most food (the first of equals in the
/// sorted order) is the food card: a built-in player of an aimed game
/// (docs/coverage.md) fills the watering hole the bot's feeding needs.
pub fn choose_most_food(boards: &[Species], hand: &[Card]) -> Option<Action4> {
    let mut order: Vec<usize> = (0..hand.len()).collect();
    order.sort_by_key(|&i| hand[i]);
    let most = (0..order.len()).fold(None, |m: Option<usize>, k| match m {
        Some(m) if hand[order[m]].food >= hand[order[k]].food => Some(m),
        _ => Some(k),
    })?;
    let food = order.remove(most);
    order.insert(0, food);
    choose_in(boards, order)
}

/// The strategy's action with the hand's cards taken in `order`.
fn choose_in(boards: &[Species], order: Vec<usize>) -> Option<Action4> {
    let mut next = order.into_iter().map(|i| i as u64);
    let food_card = next.next()?;
    let mut action = Action4 {
        food_card,
        ..Action4::default()
    };
    let (Some(pay), Some(t)) = (next.next(), next.next()) else {
        return Some(action);
    };
    action.board_trades.push(vec![pay, t]);
    let new_board = boards.len() as u64;
    if let Some(c) = next.next() {
        action.grow_population.push((new_board, c));
    }
    if let Some(c) = next.next() {
        action.grow_body.push((new_board, c));
    }
    if let Some(c) = next.next() {
        action.replace_traits.push((new_board, 0, c));
    }
    Some(action)
}

/// Which amount a fat-tissue answer asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FatRequest {
    /// The final reference strategy: all the room, `body − fat store`.
    Room,
    /// The older course strategy (most `xfeed` fixtures): capped at the
    /// watering hole.
    CappedAt(u32),
}

/// Indices of `boards` sorted largest first (population, food, body); equal
/// species keep their order (the reference's sort is stable).
fn largest_first(boards: &[Species], mut indices: Vec<usize>) -> Vec<usize> {
    indices.sort_by(|&a, &b| boards[b].size_key().cmp(&boards[a].size_key()));
    indices
}

/// `feedNext`: the reference strategy's choice, or `None` when it has
/// nothing to feed (the remote dealer never asks then).
pub fn feed(boards: &[Species], others: &[&[Species]], fat: FatRequest) -> Option<FeedOption> {
    let fatties: Vec<usize> = (0..boards.len())
        .filter(|&i| boards[i].fat_room() > 0)
        .collect();
    if !fatties.is_empty() {
        // argmax of the room over the largest-first order: the first maximum.
        let sorted = largest_first(boards, fatties);
        let mut best = sorted[0];
        for &i in &sorted[1..] {
            if boards[i].fat_room() > boards[best].fat_room() {
                best = i;
            }
        }
        let room = boards[best].fat_room();
        let amount = match fat {
            FatRequest::Room => room,
            FatRequest::CappedAt(wh) => room.min(wh),
        };
        return Some(FeedOption::Fat {
            species: best,
            amount,
        });
    }
    let hungry = |carnivore: bool| -> Vec<usize> {
        (0..boards.len())
            .filter(|&i| boards[i].hungry() && boards[i].has(Trait::Carnivore) == carnivore)
            .collect()
    };
    if let Some(&s) = largest_first(boards, hungry(false)).first() {
        return Some(FeedOption::Vegetarian(s));
    }
    for attacker in largest_first(boards, hungry(true)) {
        // Candidates player by player, right to left; the first of the
        // largest wins.
        let mut best: Option<(usize, usize)> = None;
        for (p, other) in others.iter().enumerate() {
            for target in targets(&boards[attacker], other) {
                let better = best
                    .is_none_or(|(bp, bt)| other[target].size_key() > others[bp][bt].size_key());
                if better {
                    best = Some((p, target));
                }
            }
        }
        if let Some((player, target)) = best {
            return Some(FeedOption::Attack {
                attacker,
                player,
                target,
            });
        }
    }
    None
}
