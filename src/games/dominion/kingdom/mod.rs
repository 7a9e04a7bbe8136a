//! The line protocol's plays (`rules/dominion-text.md` §3, decisions §7)
//! on the shared [`DominionTable`]: the turn, the ten kingdom cards,
//! militia and moat, buys left to right, and the clean-up's discard order
//! (D7). The deal, draws with reshuffles, the end of the game and the
//! tie-break are the shared engine's ([`super::engine`], with
//! [`TableRules::LINE`]). Pure: no I/O; shuffles and militia's random
//! discards go through a [`Shuffler`] (a seeded `fastrand::Rng` in play).
//! The legality checks ([`DominionTable::check_action`],
//! [`DominionTable::check_attack`], the buy stops) do not allocate.
//!
//! Orders: the deck and the discard pile keep their top as the **last**
//! element; drawn and gained cards are appended to the hand, and removing a
//! card removes its first occurrence (§3.7, D28).

mod attack;
mod rule;
#[cfg(test)]
mod tests;

pub use super::engine::{DominionTable, SeatedPlayer, TableRules};
pub use super::supply::Supply;
pub use attack::{AttackOutcome, AttackReply};
pub use rule::Rule;

use super::supply::{CardCounts, counts_of};

use super::cards::{Card, Shuffler};
pub use super::ending::{DEFAULT_TURN_CAP, Ending};
use super::engine::MINE_UPGRADE;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;
/// Militia discards down to this many cards (§3.6).
pub(super) const MILITIA_KEEPS: usize = 3;
const REMODEL_UPGRADE: u32 = 2;
const WORKSHOP_LIMIT: u32 = 4;

/// What a `play-reply action …` did, for the info lines and the verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionOutcome {
    /// The §8 rule broken (fail) or tolerated (warn, cellar's partial list).
    pub rule: Option<Rule>,
    /// Only for `action.no-actions`: the turn ends with no buy, and the
    /// caller ends it with [`DominionTable::end_turn`].
    pub ends_turn: bool,
    /// Cellar's discards, in order (the last is the top, D7).
    pub discarded: Vec<Card>,
    pub trashed: Option<Card>,
    pub gained: Option<Card>,
    /// A militia was resolved: every other player in [`DominionTable::attack_order`]
    /// with a [`DominionTable::attack_discard_count`] is to be asked.
    pub attack: bool,
}

/// What a buy did (§3.4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuyOutcome {
    /// The one warning of the stop, or `buy.empty`.
    pub rule: Option<Rule>,
    pub bought: Vec<Card>,
    /// The money before the first buy: treasures played plus extra-money.
    pub money: u32,
}

/// The clean-up's announcements and the end check (§3.3, D6, D7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnEnd {
    pub seat: usize,
    pub gained: Vec<Card>,
    pub played: Vec<Card>,
    pub top_discard: Option<Card>,
    pub ending: Option<Ending>,
}

/// The line protocol's plays on the shared table (§3.3–§3.6).
impl DominionTable {
    /// A new line-protocol game (§3.2, D1): the 17 piles, seats `player1`
    /// …; `players` outside 2–4 is the caller's error; the supply formulas
    /// still apply.
    pub fn line(players: usize, shuffler: &mut dyn Shuffler) -> DominionTable {
        let names: Vec<String> = (1..=players).map(|n| format!("player{n}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        DominionTable::new(
            TableRules::LINE,
            &names,
            Supply::for_players(players),
            shuffler,
        )
    }

    /// The current hand as counts, without one `played` card.
    fn hand_counts_without(&self, played: Card) -> CardCounts {
        let mut counts = counts_of(self.hand());
        let n = &mut counts[played.supply_index()];
        *n = n.saturating_sub(1);
        counts
    }

    /// Judges `play-reply action <card> <args>` (§3.5) without changing
    /// anything. `Ok` carries the one tolerated warning (cellar's partial
    /// list). Arguments past those the card takes are the grammar's
    /// `extra-tokens` and are ignored here.
    pub fn check_action(&self, card: Card, args: &[Card]) -> Result<Option<Rule>, Rule> {
        if self.actions == 0 {
            return Err(Rule::ActionNoActions);
        }
        if !card.is_action() {
            return Err(Rule::ActionNotActionCard);
        }
        if !self.hand().contains(&card) {
            return Err(Rule::ActionNotInHand);
        }
        let rest = self.hand_counts_without(card);
        let held = |c: Card| rest[c.supply_index()] > 0;
        let (first, second) = (args.first().copied(), args.get(1).copied());
        match card {
            Card::Cellar => {
                let valid = cellar_prefix(rest, args);
                if valid == args.len() {
                    Ok(None)
                } else if valid == 0 {
                    Err(Rule::CellarNoValidCards)
                } else {
                    Ok(Some(Rule::CellarCardNotInHand))
                }
            }
            Card::Mine => {
                let Some(trash) = first else {
                    let any_treasure = Card::SUPPLY.into_iter().any(|c| c.is_treasure() && held(c));
                    return if any_treasure {
                        Err(Rule::MineMissingCard)
                    } else {
                        Ok(None)
                    };
                };
                if !trash.is_treasure() {
                    return Err(Rule::MineNotTreasure);
                }
                if !held(trash) {
                    return Err(Rule::MineTrashNotInHand);
                }
                let limit = trash.cost() + MINE_UPGRADE;
                let Some(gain) = second else {
                    let gainable = self
                        .supply
                        .any_available(|c| c.is_treasure() && c.cost() <= limit);
                    return if gainable {
                        Err(Rule::MineMissingGain)
                    } else {
                        Ok(None)
                    };
                };
                if !gain.is_treasure() {
                    Err(Rule::MineNotTreasure)
                } else if self.supply.count(gain) == 0 {
                    Err(Rule::MineGainUnavailable)
                } else if gain.cost() > limit {
                    Err(Rule::MineTooExpensive)
                } else {
                    Ok(None)
                }
            }
            Card::Remodel => {
                let Some(trash) = first else {
                    let empty = rest.iter().all(|&n| n == 0);
                    return if empty {
                        Ok(None)
                    } else {
                        Err(Rule::RemodelMissingCard)
                    };
                };
                if !held(trash) {
                    return Err(Rule::RemodelTrashNotInHand);
                }
                let limit = trash.cost() + REMODEL_UPGRADE;
                let Some(gain) = second else {
                    let gainable = self.supply.any_available(|c| c.cost() <= limit);
                    return if gainable {
                        Err(Rule::RemodelMissingGain)
                    } else {
                        Ok(None)
                    };
                };
                if self.supply.count(gain) == 0 {
                    Err(Rule::RemodelGainUnavailable)
                } else if gain.cost() > limit {
                    Err(Rule::RemodelTooExpensive)
                } else {
                    Ok(None)
                }
            }
            Card::Workshop => {
                let Some(gain) = first else {
                    let gainable = self.supply.any_available(|c| c.cost() <= WORKSHOP_LIMIT);
                    return if gainable {
                        Err(Rule::WorkshopMissingGain)
                    } else {
                        Ok(None)
                    };
                };
                if self.supply.count(gain) == 0 {
                    Err(Rule::WorkshopGainUnavailable)
                } else if gain.cost() > WORKSHOP_LIMIT {
                    Err(Rule::WorkshopTooExpensive)
                } else {
                    Ok(None)
                }
            }
            _ => Ok(None),
        }
    }

    /// Plays `play-reply action <card> <args>` with the document's recovery
    /// (§3.5, D15, D16): no actions ends the turn; a card not an action or
    /// not in hand costs one action; invalid arguments also consume the card.
    pub fn play_action(
        &mut self,
        card: Card,
        args: &[Card],
        shuffler: &mut dyn Shuffler,
    ) -> ActionOutcome {
        let warning = match self.check_action(card, args) {
            Ok(warning) => warning,
            Err(rule) => {
                match rule {
                    Rule::ActionNoActions => {
                        return ActionOutcome {
                            rule: Some(rule),
                            ends_turn: true,
                            ..ActionOutcome::default()
                        };
                    }
                    Rule::ActionNotActionCard | Rule::ActionNotInHand => {}
                    _ => self.play_from_hand(card),
                }
                self.actions -= 1;
                return ActionOutcome {
                    rule: Some(rule),
                    ..ActionOutcome::default()
                };
            }
        };
        self.play_from_hand(card);
        self.actions -= 1;
        let mut outcome = ActionOutcome {
            rule: warning,
            ..ActionOutcome::default()
        };
        let seat = self.current;
        match card {
            Card::Cellar => {
                let valid = cellar_prefix(counts_of(&self.players[seat].hand), args);
                let player = &mut self.players[seat];
                for &c in &args[..valid] {
                    player.remove_from_hand(c);
                    player.discard.push(c);
                }
                self.draw(valid, shuffler);
                outcome.discarded = args[..valid].to_vec();
                self.actions += 1;
            }
            Card::Market => {
                self.draw(1, shuffler);
                self.actions += 1;
                self.buys += 1;
                self.coins += 1;
            }
            Card::Militia => {
                self.coins += 2;
                outcome.attack = true;
            }
            Card::Moat => {
                self.draw(2, shuffler);
            }
            Card::Smithy => {
                self.draw(3, shuffler);
            }
            Card::Village => {
                self.draw(1, shuffler);
                self.actions += 2;
            }
            Card::Woodcutter => {
                self.buys += 1;
                self.coins += 2;
            }
            Card::Mine | Card::Remodel => {
                if let Some(&trash) = args.first() {
                    self.trash_from_hand(trash);
                    outcome.trashed = Some(trash);
                    if let Some(&gain) = args.get(1) {
                        outcome.gained = Some(gain);
                        // Mine gains into the hand (D10), remodel to the discard.
                        if card == Card::Mine {
                            self.gain_to_hand(gain);
                        } else {
                            self.gain_to_discard(gain);
                        }
                    }
                }
            }
            Card::Workshop => {
                if let Some(&gain) = args.first() {
                    self.gain_to_discard(gain);
                    outcome.gained = Some(gain);
                }
            }
            _ => {}
        }
        outcome
    }

    /// A `play-turn` reply the grammar rejected (§3.5, recovery): with
    /// actions left it costs one and the request is repeated; with none the
    /// turn ends without a buy. Returns whether the turn ends (then call
    /// [`DominionTable::end_turn`]).
    pub fn malformed_turn_reply(&mut self) -> bool {
        if self.actions == 0 {
            return true;
        }
        self.actions -= 1;
        false
    }

    /// `play-reply buy <cards>` (§3.4): plays every treasure in hand, in hand
    /// order, then buys left to right until the first card that finds no
    /// buy, an empty pile or too little money. An empty list is a pass with
    /// `buy.empty`. The turn is over afterwards: call [`DominionTable::end_turn`].
    pub fn buy(&mut self, cards: &[Card]) -> BuyOutcome {
        if cards.is_empty() {
            return BuyOutcome {
                rule: Some(Rule::BuyEmpty),
                ..BuyOutcome::default()
            };
        }
        let player = &mut self.players[self.current];
        let mut money = self.coins;
        let mut kept = Vec::with_capacity(player.hand.len());
        for c in player.hand.drain(..) {
            if c.is_treasure() {
                money += c.value();
                self.play_area.push(c);
            } else {
                kept.push(c);
            }
        }
        player.hand = kept;
        let mut outcome = BuyOutcome {
            money,
            ..BuyOutcome::default()
        };
        for &card in cards {
            let stop = if self.buys == 0 {
                Some(Rule::BuyMoreThanBuys)
            } else if self.supply.count(card) == 0 {
                Some(Rule::BuyPileEmpty)
            } else if card.cost() > money {
                Some(Rule::BuyUnaffordable)
            } else {
                None
            };
            if stop.is_some() {
                outcome.rule = stop;
                break;
            }
            self.gain_to_discard(card);
            self.buys -= 1;
            money -= card.cost();
            outcome.bought.push(card);
        }
        outcome
    }

    /// Clean-up, the end check and the move to the next seat (§3.3, §3.8;
    /// the draw, the end check and the winners are the shared
    /// [`DominionTable::finish_turn`], [`DominionTable::winners`]).
    /// The top of the discard pile follows D7: the last card played, else
    /// the hand's first victory card or curse, first treasure, first action.
    pub fn end_turn(&mut self, shuffler: &mut dyn Shuffler) -> TurnEnd {
        let seat = self.current;
        let played = std::mem::take(&mut self.play_area);
        let gained = std::mem::take(&mut self.gained);
        let player = &mut self.players[seat];
        let hand = std::mem::take(&mut player.hand);
        let from_hand = [
            |c: Card| c.is_victory() || c.is_curse(),
            |c: Card| c.is_treasure(),
            |c: Card| c.is_action(),
        ]
        .into_iter()
        .find_map(|pick| hand.iter().position(|&c| pick(c)));
        if played.is_empty()
            && let Some(i) = from_hand
        {
            let top = hand[i];
            player
                .discard
                .extend(hand[..i].iter().chain(&hand[i + 1..]));
            player.discard.push(top);
        } else {
            player.discard.extend(&hand);
            player.discard.extend(&played);
        }
        let top_discard = player.discard.last().copied();
        let ending = self.finish_turn(shuffler);
        TurnEnd {
            seat,
            gained,
            played,
            top_discard,
            ending,
        }
    }
}

/// How many of `args`, left to right, are in `hand` counted as a multiset,
/// up to the first that is not (cellar, §3.5).
fn cellar_prefix(mut hand: CardCounts, args: &[Card]) -> usize {
    for (i, c) in args.iter().enumerate() {
        let n = &mut hand[c.supply_index()];
        if *n == 0 {
            return i;
        }
        *n -= 1;
    }
    args.len()
}
