//! The rule engine of the line protocol's game (`rules/dominion-text.md` §3,
//! decisions §7): supply per player count, starting decks, the turn, the ten
//! kingdom cards, militia and moat, draws with reshuffles, buys left to
//! right, end of game and tie-break. Pure: no I/O; shuffles and militia's
//! random discards go through a [`Shuffler`] (a seeded `fastrand::Rng` in
//! play). The legality checks ([`KingdomState::check_action`],
//! [`KingdomState::check_attack`], the buy stops) do not allocate.
//!
//! Orders: the deck and the discard pile keep their top as the **last**
//! element; drawn and gained cards are appended to the hand, and removing a
//! card removes its first occurrence (§3.7, D28).

mod attack;
mod piles;
mod rule;
#[cfg(test)]
mod tests;

pub use super::supply::Supply;
pub use attack::{AttackOutcome, AttackReply};
pub use piles::PlayerCards;
pub use rule::Rule;

use super::supply::{CardCounts, counts_of};

use super::cards::{Card, HAND_SIZE, STARTING_DECK, Shuffler};
use super::ending::EndRules;
pub use super::ending::{DEFAULT_TURN_CAP, Ending};

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;
/// Militia discards down to this many cards (§3.6).
pub(super) const MILITIA_KEEPS: usize = 3;
const MINE_UPGRADE: u32 = 3;
const REMODEL_UPGRADE: u32 = 2;
const WORKSHOP_LIMIT: u32 = 4;

/// What a `play-reply action …` did, for the info lines and the verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionOutcome {
    /// The §8 rule broken (fail) or tolerated (warn, cellar's partial list).
    pub rule: Option<Rule>,
    /// Only for `action.no-actions`: the turn ends with no buy, and the
    /// caller ends it with [`KingdomState::end_turn`].
    pub ends_turn: bool,
    /// Cellar's discards, in order (the last is the top, D7).
    pub discarded: Vec<Card>,
    pub trashed: Option<Card>,
    pub gained: Option<Card>,
    /// A militia was resolved: every other player in [`KingdomState::attack_order`]
    /// with a [`KingdomState::attack_discard_count`] is to be asked.
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

/// The whole state of a line-protocol game: supply, every player's cards,
/// trash and the current turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingdomState {
    pub supply: Supply,
    pub players: Vec<PlayerCards>,
    pub trash: Vec<Card>,
    /// The seat whose turn it is (0 = player1).
    pub current: usize,
    pub actions: u32,
    pub buys: u32,
    pub extra_money: u32,
    /// Cards played this turn, in order.
    pub play_area: Vec<Card>,
    /// Cards the current player gained this turn, in order.
    pub gained: Vec<Card>,
    pub turn_cap: u32,
    pub ended: Option<Ending>,
}

impl KingdomState {
    /// A new game: each player gets 7 coppers and 3 estates, shuffled, and
    /// draws 5, in seat order; player1 starts (§3.2, D1). `players` outside
    /// 2–4 is the caller's error; the supply formulas still apply.
    pub fn new(players: usize, shuffler: &mut dyn Shuffler) -> KingdomState {
        let players = (0..players)
            .map(|_| {
                let mut player = PlayerCards {
                    deck: STARTING_DECK.to_vec(),
                    ..PlayerCards::default()
                };
                shuffler.shuffle(&mut player.deck);
                player.draw(HAND_SIZE, shuffler);
                player
            })
            .collect::<Vec<_>>();
        KingdomState {
            supply: Supply::for_players(players.len()),
            players,
            trash: Vec::new(),
            current: 0,
            actions: 1,
            buys: 1,
            extra_money: 0,
            play_area: Vec::new(),
            gained: Vec::new(),
            turn_cap: DEFAULT_TURN_CAP,
            ended: None,
        }
    }

    pub fn hand(&self) -> &[Card] {
        &self.players[self.current].hand
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
                    _ => self.move_to_play_area(card),
                }
                self.actions -= 1;
                return ActionOutcome {
                    rule: Some(rule),
                    ..ActionOutcome::default()
                };
            }
        };
        self.move_to_play_area(card);
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
                player.draw(valid, shuffler);
                outcome.discarded = args[..valid].to_vec();
                self.actions += 1;
            }
            Card::Market => {
                self.players[seat].draw(1, shuffler);
                self.actions += 1;
                self.buys += 1;
                self.extra_money += 1;
            }
            Card::Militia => {
                self.extra_money += 2;
                outcome.attack = true;
            }
            Card::Moat => {
                self.players[seat].draw(2, shuffler);
            }
            Card::Smithy => {
                self.players[seat].draw(3, shuffler);
            }
            Card::Village => {
                self.players[seat].draw(1, shuffler);
                self.actions += 2;
            }
            Card::Woodcutter => {
                self.buys += 1;
                self.extra_money += 2;
            }
            Card::Mine | Card::Remodel => {
                if let Some(&trash) = args.first() {
                    self.players[seat].remove_from_hand(trash);
                    self.trash.push(trash);
                    outcome.trashed = Some(trash);
                    if let Some(&gain) = args.get(1) {
                        self.supply.take(gain);
                        self.gained.push(gain);
                        outcome.gained = Some(gain);
                        // Mine gains into the hand (D10), remodel to the discard.
                        let player = &mut self.players[seat];
                        if card == Card::Mine {
                            player.hand.push(gain);
                        } else {
                            player.discard.push(gain);
                        }
                    }
                }
            }
            Card::Workshop => {
                if let Some(&gain) = args.first() {
                    self.supply.take(gain);
                    self.gained.push(gain);
                    self.players[seat].discard.push(gain);
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
    /// [`KingdomState::end_turn`]).
    pub fn malformed_turn_reply(&mut self) -> bool {
        if self.actions == 0 {
            return true;
        }
        self.actions -= 1;
        false
    }

    fn move_to_play_area(&mut self, card: Card) {
        if self.players[self.current].remove_from_hand(card) {
            self.play_area.push(card);
        }
    }

    /// `play-reply buy <cards>` (§3.4): plays every treasure in hand, in hand
    /// order, then buys left to right until the first card that finds no
    /// buy, an empty pile or too little money. An empty list is a pass with
    /// `buy.empty`. The turn is over afterwards: call [`KingdomState::end_turn`].
    pub fn buy(&mut self, cards: &[Card]) -> BuyOutcome {
        if cards.is_empty() {
            return BuyOutcome {
                rule: Some(Rule::BuyEmpty),
                ..BuyOutcome::default()
            };
        }
        let player = &mut self.players[self.current];
        let mut money = self.extra_money;
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
            self.supply.take(card);
            self.buys -= 1;
            money -= card.cost();
            self.players[self.current].discard.push(card);
            self.gained.push(card);
            outcome.bought.push(card);
        }
        outcome
    }

    /// Clean-up, the end check and the move to the next seat (§3.3, §3.8).
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
        player.draw(HAND_SIZE, shuffler);
        player.turns += 1;
        self.current = (seat + 1) % self.players.len();
        self.actions = 1;
        self.buys = 1;
        self.extra_money = 0;
        self.ended = EndRules::LINE.ending(
            self.supply.count(Card::Province),
            || self.supply.empty_piles(),
            self.players[self.current].turns >= self.turn_cap,
        );
        TurnEnd {
            seat,
            gained,
            played,
            top_discard,
            ending: self.ended,
        }
    }

    pub fn scores(&self) -> Vec<i32> {
        self.players.iter().map(PlayerCards::score).collect()
    }

    /// The winners (§3.8): the highest score; on a tie the fewer turns; a
    /// tie that remains shares the win.
    pub fn winners(&self) -> Vec<usize> {
        EndRules::LINE.winners(self.players.iter().map(|p| (p.score(), p.turns)))
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
