//! The Dominion v1 rule engine (`rules/dominion-sexp.md` §3): decks, draws
//! and reshuffles, the four plays with the reference's check order,
//! clean-up, turn order and scores. Pure: no I/O; shuffles go through a
//! [`Shuffler`] (a seeded `fastrand::Rng` in play). The supply, the starting
//! deck, the end of the game and the winners are the ones the line
//! protocol's engine uses (`games::dominion`), with version 1's piles and
//! [`EndRules::V1`] as their parameters.
//!
//! List orders mirror the reference so snapshots compare with the oracle
//! transcripts: every list that gains a card gains it at the front, removal
//! takes the first occurrence, the deck is shown sorted by name.

use super::catalogue as cat;
use super::messages::{Card, Play, State};
use crate::verdict::RuleInfo;

/// Shared with the line protocol's engine: the engine draws from the end of
/// the deck vector. The turn cap (D6) and the ending are shared too; version
/// 1's own end rules are [`EndRules::V1`].
pub use crate::games::dominion::{DEFAULT_TURN_CAP, Ending, Shuffler};
use crate::games::dominion::{EndRules, HAND_SIZE, STARTING_DECK};

/// The supply is the shared one; version 1 stocks its seven piles in its
/// own order (§3.2, D5).
pub use crate::games::dominion::Supply;

impl Supply {
    /// The version-1 piles for `players` players (§3.2, decision D5), in
    /// the order of [`Card::V1`].
    pub fn v1(players: usize) -> Supply {
        Supply::stocked(players, &Card::V1)
    }
}

/// One player's cards outside the supply.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seat {
    pub name: String,
    /// Draw order: the top card is the last element.
    pub deck: Vec<Card>,
    /// The front is index 0.
    pub hand: Vec<Card>,
    /// Most recent first.
    pub discards: Vec<Card>,
    pub turns: u32,
}

impl Seat {
    /// Draws until the hand holds `n` cards, reshuffling the discard pile
    /// into the deck when the deck runs out (§3.5).
    fn draw_up_to(&mut self, n: usize, shuffler: &mut dyn Shuffler) {
        while self.hand.len() < n {
            if self.deck.is_empty() {
                if self.discards.is_empty() {
                    return;
                }
                self.deck = std::mem::take(&mut self.discards);
                shuffler.shuffle(&mut self.deck);
            }
            let card = self.deck.pop().expect("a non-empty deck");
            self.hand.insert(0, card);
        }
    }

    pub fn victory_points(&self) -> u32 {
        let points: i32 = self
            .deck
            .iter()
            .chain(&self.hand)
            .chain(&self.discards)
            .map(|c| c.victory_points())
            .sum();
        // Version 1 has no curse, the only card worth less than nothing.
        points.max(0) as u32
    }
}

fn remove_first(cards: &mut Vec<Card>, card: Card) -> bool {
    match cards.iter().position(|&c| c == card) {
        Some(i) => {
            cards.remove(i);
            true
        }
        None => false,
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

/// The dealer's whole state of a version-1 game (a [`State`] message shows
/// one player's view of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct V1State {
    pub seats: Vec<Seat>,
    pub supply: Supply,
    /// Most recently trashed first.
    pub trash: Vec<Card>,
    /// The seat whose turn it is.
    pub current: usize,
    pub actions: u32,
    pub buys: u32,
    pub coins: u32,
    /// Cards played this turn, most recent first.
    pub plays: Vec<Card>,
    pub turn_cap: u32,
    pub ended: Option<Ending>,
}

impl V1State {
    /// A new game: every seat gets 7 coppers and 3 estates, shuffled, and
    /// draws 5, in seat order; seat 0 starts (§3.2, D15).
    pub fn new(names: &[&str], supply: Supply, shuffler: &mut dyn Shuffler) -> V1State {
        let seats = names
            .iter()
            .map(|name| {
                let mut seat = Seat {
                    name: name.to_string(),
                    ..Seat::default()
                };
                seat.deck.extend(STARTING_DECK);
                shuffler.shuffle(&mut seat.deck);
                seat.draw_up_to(HAND_SIZE, shuffler);
                seat
            })
            .collect();
        V1State {
            seats,
            supply,
            trash: Vec::new(),
            current: 0,
            actions: 1,
            buys: 1,
            coins: 0,
            plays: Vec::new(),
            turn_cap: DEFAULT_TURN_CAP,
            ended: None,
        }
    }

    /// A game in the middle of the current player's turn, as a state shows
    /// it. The other players hold no cards, as in the reference's legality
    /// test; the deck's draw order is its listed order, top last.
    pub fn from_state(state: &State) -> V1State {
        let seats = state
            .players
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let mut seat = Seat {
                    name: name.clone(),
                    ..Seat::default()
                };
                if i == 0 {
                    seat.deck = state.deck.clone();
                    seat.hand = state.hand.clone();
                    seat.discards = state.discards.clone();
                }
                seat
            })
            .collect();
        V1State {
            seats,
            supply: Supply::from_cards(&state.supply),
            trash: state.trash.clone(),
            current: 0,
            actions: state.actions,
            buys: state.buys,
            coins: state.coins,
            plays: state.plays.clone(),
            turn_cap: DEFAULT_TURN_CAP,
            ended: None,
        }
    }

    /// The state the current player is sent (§2.1): players from the current
    /// one in turn order, the deck sorted by name.
    pub fn snapshot(&self) -> State {
        let seat = &self.seats[self.current];
        let n = self.seats.len();
        let mut deck = seat.deck.clone();
        deck.sort_by_key(|c| c.name());
        State {
            players: (0..n)
                .map(|i| self.seats[(self.current + i) % n].name.clone())
                .collect(),
            supply: self.supply.cards(),
            trash: self.trash.clone(),
            actions: self.actions,
            buys: self.buys,
            coins: self.coins,
            deck,
            hand: seat.hand.clone(),
            plays: self.plays.clone(),
            discards: seat.discards.clone(),
        }
    }

    pub fn current_name(&self) -> &str {
        &self.seats[self.current].name
    }

    /// Whether `play` is legal now, checked in the reference's order (§3.4),
    /// after the grammar's card rules (§2.2 steps 5–6) that [`Play`] cannot
    /// express. Allocates nothing on success.
    pub fn check(&self, play: Play) -> Result<(), Illegal> {
        let hand = &self.seats[self.current].hand;
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
                if gain.cost() > trash.cost() + 3 {
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

    /// Calls `f` with every legal play, in the order of [`V1State::legal_plays`]
    /// (mines, adds, buys, cleans), reasoning from the state directly rather
    /// than checking every shape: the built-in players' hot path, with no
    /// allocation. A test holds it equal to the plays `check` accepts.
    pub fn for_each_legal(&self, mut f: impl FnMut(Play)) {
        const TREASURES: [Card; 3] = [Card::Copper, Card::Silver, Card::Gold];
        let hand = &self.seats[self.current].hand;
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
                    if stocked[index(gain)] && gain.cost() <= trash.cost() + 3 {
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
    /// the order of [`V1State::legal_plays`]), without allocating.
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
        let seat = &mut self.seats[self.current];
        match play {
            Play::Mine { trash, gain } => {
                remove_first(&mut seat.hand, trash);
                remove_first(&mut seat.hand, Card::Mine);
                self.supply.take(gain);
                seat.hand.insert(0, gain);
                self.trash.insert(0, trash);
                self.plays.insert(0, Card::Mine);
                self.actions -= 1;
            }
            Play::Add(t) => {
                remove_first(&mut seat.hand, t);
                self.plays.insert(0, t);
                self.coins += t.value();
                self.actions = 0;
            }
            Play::Buy(c) => {
                self.supply.take(c);
                seat.discards.insert(0, c);
                self.buys -= 1;
                self.coins -= c.cost();
                self.actions = 0;
            }
            Play::Clean(_) => return Ok(self.clean_up(shuffler)),
        }
        Ok(Outcome::Continue)
    }

    /// §3.4 clean-up, the draw, the end check and the next seat.
    fn clean_up(&mut self, shuffler: &mut dyn Shuffler) -> Outcome {
        let last_seat = self.current + 1 == self.seats.len();
        let seat = &mut self.seats[self.current];
        let mut discards = std::mem::take(&mut seat.hand);
        discards.append(&mut self.plays);
        discards.append(&mut seat.discards);
        seat.discards = discards;
        seat.draw_up_to(HAND_SIZE, shuffler);
        seat.turns += 1;
        let capped = last_seat && seat.turns >= self.turn_cap;
        self.current = (self.current + 1) % self.seats.len();
        self.actions = 1;
        self.buys = 1;
        self.coins = 0;
        // Version 1 has no three-pile ending (D5): EndRules::V1 never counts
        // the empty piles.
        let supply = &self.supply;
        let provinces = supply.count(Card::Province);
        if let Some(ending) = EndRules::V1.ending(provinces, || supply.empty_piles(), capped) {
            self.ended = Some(ending);
        }
        match self.ended {
            Some(ending) => Outcome::GameOver(ending),
            None => Outcome::TurnOver,
        }
    }

    /// Victory points per seat (§3.6).
    pub fn scores(&self) -> Vec<u32> {
        self.seats.iter().map(Seat::victory_points).collect()
    }

    /// Every seat with the top score (no tie-break, D7).
    pub fn winners(&self) -> Vec<usize> {
        let points = |seat: &Seat| i32::try_from(seat.victory_points()).unwrap_or(i32::MAX);
        EndRules::V1.winners(self.seats.iter().map(|seat| (points(seat), seat.turns)))
    }

    /// Puts `top` on top of `seat`'s deck, `top[0]` drawn first, the rest of
    /// the deck below in its order. For scripted deals and for replaying
    /// recorded games, whose draw order only the next hand reveals. False
    /// (and nothing changed) when the deck does not hold those cards.
    pub fn stack_deck(&mut self, seat: usize, top: &[Card]) -> bool {
        let deck = &mut self.seats[seat].deck;
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
