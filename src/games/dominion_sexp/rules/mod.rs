//! Version 1's plays (`rules/dominion-sexp.md` §3) on the one Dominion
//! engine ([`DominionTable`] with [`TableRules::V1`]): the four plays with
//! the reference's check order and rule ids, the clean-up's discard order
//! (D18), the state a player is sent and the game a state describes. The
//! supply, the deal, draws and reshuffles, the end of the game, the turn
//! cap (D6), scores and winners (D7) are the shared engine's
//! (`games::dominion::engine`), the same as the line protocol's. Pure: no
//! I/O; shuffles go through a [`Shuffler`] (a seeded `fastrand::Rng` in
//! play).
//!
//! List orders mirror the reference so snapshots compare with the oracle
//! transcripts: every list that gains a card gains it at the front
//! (`Newest::First`), removal takes the first occurrence, the deck is
//! shown sorted by name.

use super::catalogue as cat;
use super::messages::{Card, Play, State};
use crate::games::dominion::engine::{MINE_UPGRADE, remove_first};
use crate::verdict::RuleInfo;

/// The shared engine, as version 1 plays it.
pub use crate::games::dominion::{
    DEFAULT_TURN_CAP, DominionTable, Ending, SeatedPlayer, Shuffler, Supply, TableRules,
};

impl Supply {
    /// The version-1 piles for `players` players (§3.2, decision D5), in
    /// the order of [`Card::V1`].
    pub fn v1(players: usize) -> Supply {
        Supply::stocked(players, &Card::V1)
    }
}

/// What a legal play did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The same player plays again.
    Continue,
    /// A clean ended the turn; the next seat plays.
    TurnOver,
    /// A clean ended the turn and the game.
    GameOver(Ending),
}

/// An illegal play: the rule and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    pub rule: &'static RuleInfo,
    pub detail: String,
}

/// Version 1's plays on the shared table.
impl DominionTable {
    /// A new version-1 game (§3.2, D15): every seat gets 7 coppers and 3
    /// estates, shuffled, and draws 5, in seat order; seat 0 starts.
    pub fn v1(names: &[&str], supply: Supply, shuffler: &mut dyn Shuffler) -> DominionTable {
        DominionTable::new(TableRules::V1, names, supply, shuffler)
    }

    /// A game in the middle of the current player's turn, as a state shows
    /// it. The other players hold no cards, as in the reference's legality
    /// test; the deck's draw order is its listed order, top last.
    pub fn from_state(state: &State) -> DominionTable {
        let players = state
            .players
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let mut player = SeatedPlayer {
                    name: name.clone(),
                    ..SeatedPlayer::default()
                };
                if i == 0 {
                    player.deck = state.deck.clone();
                    player.hand = state.hand.clone();
                    player.discard = state.discards.clone();
                }
                player
            })
            .collect();
        DominionTable {
            rules: TableRules::V1,
            supply: Supply::from_cards(&state.supply),
            players,
            trash: state.trash.clone(),
            current: 0,
            actions: state.actions,
            buys: state.buys,
            coins: state.coins,
            play_area: state.plays.clone(),
            gained: Vec::new(),
            turn_cap: DEFAULT_TURN_CAP,
            ended: None,
        }
    }

    /// The state the current player is sent (§2.1): players from the current
    /// one in turn order, the deck sorted by name.
    pub fn snapshot(&self) -> State {
        let player = &self.players[self.current];
        let n = self.players.len();
        let mut deck = player.deck.clone();
        deck.sort_by_key(|c| c.name());
        State {
            players: (0..n)
                .map(|i| self.players[(self.current + i) % n].name.clone())
                .collect(),
            supply: self.supply.cards(),
            trash: self.trash.clone(),
            actions: self.actions,
            buys: self.buys,
            coins: self.coins,
            deck,
            hand: player.hand.clone(),
            plays: self.play_area.clone(),
            discards: player.discard.clone(),
        }
    }

    /// Whether `play` is legal now, checked in the reference's order (§3.4),
    /// after the grammar's card rules (§2.2 steps 5–6) that [`Play`] cannot
    /// express. Allocates nothing on success.
    pub fn check(&self, play: Play) -> Result<(), Illegal> {
        let hand = self.hand();
        let illegal = |rule: &'static RuleInfo, detail: String| Err(Illegal { rule, detail });
        // The grammar's card rules, for plays not built by `classify`.
        let (cards, treasures) = match play {
            Play::Mine { trash, gain } => ([Some(trash), Some(gain)], 2),
            Play::Add(t) => ([Some(t), None], 1),
            Play::Buy(c) | Play::Clean(Some(c)) => ([Some(c), None], 0),
            Play::Clean(None) => ([None, None], 0),
        };
        if let Some(c) = cards.iter().flatten().find(|c| !Card::V1.contains(c)) {
            return illegal(
                &cat::GRAMMAR_UNKNOWN_CARD,
                format!("{c} is not a card of version 1"),
            );
        }
        if let Some(c) = cards[..treasures]
            .iter()
            .flatten()
            .find(|c| !c.is_treasure())
        {
            return illegal(&cat::GRAMMAR_NOT_TREASURE, format!("{c} is not a treasure"));
        }
        match play {
            Play::Mine { trash, gain } => {
                if !hand.contains(&Card::Mine) {
                    return illegal(&cat::MINE_NOT_IN_HAND, "there is no mine in hand".into());
                }
                if self.actions == 0 {
                    return illegal(&cat::MINE_NO_ACTIONS, "no actions are left".into());
                }
                if !hand.contains(&trash) {
                    return illegal(&cat::MINE_TRASH_NOT_IN_HAND, format!("no {trash} in hand"));
                }
                if !self.supply.contains(gain) {
                    return illegal(
                        &cat::MINE_GAIN_NOT_IN_SUPPLY,
                        format!("no {gain} left in the supply"),
                    );
                }
                if gain.cost() > trash.cost() + MINE_UPGRADE {
                    return illegal(
                        &cat::MINE_TOO_EXPENSIVE,
                        format!(
                            "{gain} costs {}, more than {trash}'s cost {} plus 3",
                            gain.cost(),
                            trash.cost()
                        ),
                    );
                }
            }
            Play::Add(t) => {
                if !hand.contains(&t) {
                    return illegal(&cat::ADD_NOT_IN_HAND, format!("no {t} in hand"));
                }
                if self.buys == 0 {
                    return illegal(&cat::ADD_NO_BUYS, "no buys are left".into());
                }
            }
            Play::Buy(c) => {
                if self.buys == 0 {
                    return illegal(&cat::BUY_NO_BUYS, "no buys are left".into());
                }
                if !self.supply.contains(c) {
                    return illegal(
                        &cat::BUY_NOT_IN_SUPPLY,
                        format!("no {c} left in the supply"),
                    );
                }
                if c.cost() > self.coins {
                    return illegal(
                        &cat::BUY_TOO_EXPENSIVE,
                        format!("{c} costs {}, only {} coins", c.cost(), self.coins),
                    );
                }
            }
            Play::Clean(Some(c)) => {
                if !hand.contains(&c) {
                    return illegal(&cat::CLEAN_TOP_NOT_IN_HAND, format!("no {c} in hand"));
                }
            }
            Play::Clean(None) => {
                if !hand.is_empty() {
                    return illegal(
                        &cat::CLEAN_CARD_REQUIRED,
                        format!("the hand holds {} cards", hand.len()),
                    );
                }
            }
        }
        Ok(())
    }

    /// Every version-1 play that is legal now (for opponents and generated
    /// games; never empty before the end: a clean is always possible).
    pub fn legal_plays(&self) -> Vec<Play> {
        let mut plays = Vec::with_capacity(32);
        self.for_each_legal(|p| plays.push(p));
        plays
    }

    /// Calls `f` with every legal play, in the order of [`DominionTable::legal_plays`]
    /// (mines, adds, buys, cleans), reasoning from the state directly rather
    /// than checking every shape: the built-in players' hot path, with no
    /// allocation. A test holds it equal to the plays `check` accepts.
    pub fn for_each_legal(&self, mut f: impl FnMut(Play)) {
        const TREASURES: [Card; 3] = [Card::Copper, Card::Silver, Card::Gold];
        let hand = self.hand();
        let mut held = [false; 7];
        for &c in hand {
            if let Some(i) = Card::V1.iter().position(|&v| v == c) {
                held[i] = true;
            }
        }
        let mut stocked = [false; 7];
        for (i, &c) in Card::V1.iter().enumerate() {
            stocked[i] = self.supply.contains(c);
        }
        let index = |c: Card| Card::V1.iter().position(|&v| v == c).unwrap_or(0);
        if held[index(Card::Mine)] && self.actions > 0 {
            for trash in TREASURES {
                if !held[index(trash)] {
                    continue;
                }
                for gain in TREASURES {
                    if stocked[index(gain)] && gain.cost() <= trash.cost() + MINE_UPGRADE {
                        f(Play::Mine { trash, gain });
                    }
                }
            }
        }
        if self.buys > 0 {
            for t in TREASURES {
                if held[index(t)] {
                    f(Play::Add(t));
                }
            }
            for (i, &c) in Card::V1.iter().enumerate() {
                if stocked[i] && c.cost() <= self.coins {
                    f(Play::Buy(c));
                }
            }
        }
        if hand.is_empty() {
            f(Play::Clean(None));
        }
        for (i, &c) in Card::V1.iter().enumerate() {
            if held[i] {
                f(Play::Clean(Some(c)));
            }
        }
    }

    /// How many plays are legal now, and the `n`-th of them (0-based, in
    /// the order of [`DominionTable::legal_plays`]), without allocating.
    pub fn legal_count(&self) -> usize {
        let mut n = 0;
        self.for_each_legal(|_| n += 1);
        n
    }

    pub fn nth_legal(&self, n: usize) -> Option<Play> {
        let mut k = 0;
        let mut found = None;
        self.for_each_legal(|p| {
            if k == n {
                found = Some(p);
            }
            k += 1;
        });
        found
    }

    /// Checks and applies `play` for the current player. An illegal play
    /// changes nothing.
    pub fn apply(&mut self, play: Play, shuffler: &mut dyn Shuffler) -> Result<Outcome, Illegal> {
        if let Some(ending) = self.ended {
            return Ok(Outcome::GameOver(ending));
        }
        self.check(play)?;
        match play {
            Play::Mine { trash, gain } => {
                self.play_from_hand(Card::Mine);
                self.trash_from_hand(trash);
                self.gain_to_hand(gain);
                self.actions -= 1;
            }
            Play::Add(t) => {
                self.play_from_hand(t);
                self.coins += t.value();
                self.actions = 0;
            }
            Play::Buy(c) => {
                self.gain_to_discard(c);
                self.buys -= 1;
                self.coins -= c.cost();
                self.actions = 0;
            }
            Play::Clean(_) => return Ok(self.clean_up(shuffler)),
        }
        Ok(Outcome::Continue)
    }

    /// §3.4 clean-up: the new discard pile is the hand, then `plays`, then
    /// the old discard pile, each newest first (the shown card stays where
    /// it is, D18); then
    /// the shared end of the turn (the draw, the end check, the next seat).
    fn clean_up(&mut self, shuffler: &mut dyn Shuffler) -> Outcome {
        let player = &mut self.players[self.current];
        let mut discard = std::mem::take(&mut player.hand);
        discard.append(&mut self.play_area);
        discard.append(&mut player.discard);
        player.discard = discard;
        match self.finish_turn(shuffler) {
            Some(ending) => Outcome::GameOver(ending),
            None => Outcome::TurnOver,
        }
    }

    /// Puts `top` on top of `seat`'s deck, `top[0]` drawn first, the rest of
    /// the deck below in its order. For scripted deals and for replaying
    /// recorded games, whose draw order only the next hand reveals. False
    /// (and nothing changed) when the deck does not hold those cards.
    pub fn stack_deck(&mut self, seat: usize, top: &[Card]) -> bool {
        let deck = &mut self.players[seat].deck;
        let mut rest = deck.clone();
        for &c in top {
            if !remove_first(&mut rest, c) {
                return false;
            }
        }
        rest.extend(top.iter().rev());
        *deck = rest;
        true
    }
}

#[cfg(test)]
mod tests;
