//! The one Dominion rule engine both protocols play on: the table's state
//! ([`DominionTable`]), the deal, draws with reshuffles, the card moves the
//! plays are made of (to the play area, to the trash, gains), the end of
//! every turn with the end check and the turn cap, scores and winners.
//! Pure: no I/O; shuffles go through a [`Shuffler`] (a seeded
//! `fastrand::Rng` in play).
//!
//! What the protocols truly differ in is data, [`TableRules`]: which end of
//! a list is its newest card, and the end rules ([`EndRules`]). Each
//! protocol's plays (which replies are legal, in which order they are
//! checked, with which rule ids) and its clean-up's discard order are that
//! protocol's: the line protocol's in [`super::kingdom`], version 1's in
//! `dominion_sexp::rules`.

mod player;
#[cfg(test)]
mod tests;

pub use player::{SeatedPlayer, remove_first};

use super::cards::{Card, HAND_SIZE, STARTING_DECK, Shuffler};
use super::ending::{DEFAULT_TURN_CAP, EndRules, Ending};
use super::supply::Supply;

/// Mine gains a treasure costing up to this much more than the one it
/// trashes (dominion-text §3.5, dominion-sexp §3.4).
pub const MINE_UPGRADE: u32 = 3;

/// Which end of the hand, the discard pile, the play area and the trash
/// holds the newest card. The deck's top is always its last element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Newest {
    /// Every list gains at the front (dominion-sexp §2.1, as the reference
    /// lists them).
    First,
    /// Every list gains at the back (dominion-text §3.7).
    Last,
}

impl Newest {
    /// Puts `card` at the newest end of `list`.
    pub fn put(self, list: &mut Vec<Card>, card: Card) {
        match self {
            Newest::First => list.insert(0, card),
            Newest::Last => list.push(card),
        }
    }
}

/// The rules one protocol plays the table by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableRules {
    pub newest: Newest,
    pub end: EndRules,
}

impl TableRules {
    /// The line protocol (dominion-text §3.7, §3.8).
    pub const LINE: TableRules = TableRules {
        newest: Newest::Last,
        end: EndRules::LINE,
    };
    /// The S-expression protocol's version 1 (dominion-sexp §2.1, §3.6).
    pub const V1: TableRules = TableRules {
        newest: Newest::First,
        end: EndRules::V1,
    };
}

/// The whole state of a Dominion game: supply, every player's cards, the
/// trash and the current turn. A protocol's message shows one player's view
/// of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DominionTable {
    pub rules: TableRules,
    pub supply: Supply,
    /// In seat order; seat 0 plays first.
    pub players: Vec<SeatedPlayer>,
    pub trash: Vec<Card>,
    /// The seat whose turn it is.
    pub current: usize,
    pub actions: u32,
    pub buys: u32,
    /// Coins for buys this turn that the hand's treasures do not hold:
    /// version 1's `coins` (from adds), the line protocol's `extra-money`
    /// (from actions; its treasures are counted at the buy).
    pub coins: u32,
    /// Cards played this turn.
    pub play_area: Vec<Card>,
    /// Cards the current player gained this turn, in order.
    pub gained: Vec<Card>,
    pub turn_cap: u32,
    pub ended: Option<Ending>,
}

impl DominionTable {
    /// A new game: every player gets 7 coppers and 3 estates, shuffled, and
    /// draws 5, in seat order; seat 0 starts (dominion-text §3.2, D1;
    /// dominion-sexp §3.2, D15).
    pub fn new(
        rules: TableRules,
        names: &[&str],
        supply: Supply,
        shuffler: &mut dyn Shuffler,
    ) -> DominionTable {
        let players = names
            .iter()
            .map(|name| {
                let mut player = SeatedPlayer {
                    name: name.to_string(),
                    deck: STARTING_DECK.to_vec(),
                    ..SeatedPlayer::default()
                };
                shuffler.shuffle(&mut player.deck);
                player.draw(HAND_SIZE, rules.newest, shuffler);
                player
            })
            .collect();
        DominionTable {
            rules,
            supply,
            players,
            trash: Vec::new(),
            current: 0,
            actions: 1,
            buys: 1,
            coins: 0,
            play_area: Vec::new(),
            gained: Vec::new(),
            turn_cap: DEFAULT_TURN_CAP,
            ended: None,
        }
    }

    pub fn hand(&self) -> &[Card] {
        &self.players[self.current].hand
    }

    pub fn current_name(&self) -> &str {
        &self.players[self.current].name
    }

    /// Draws `k` cards for the current player.
    pub fn draw(&mut self, k: usize, shuffler: &mut dyn Shuffler) -> usize {
        let newest = self.rules.newest;
        self.players[self.current].draw(k, newest, shuffler)
    }

    /// Moves one `card` from the current hand to the play area (nothing
    /// when the hand holds none).
    pub fn play_from_hand(&mut self, card: Card) {
        if self.players[self.current].remove_from_hand(card) {
            self.rules.newest.put(&mut self.play_area, card);
        }
    }

    /// Moves one `card` from the current hand to the trash.
    pub fn trash_from_hand(&mut self, card: Card) {
        if self.players[self.current].remove_from_hand(card) {
            self.rules.newest.put(&mut self.trash, card);
        }
    }

    /// The current player gains `card` from the supply into the hand
    /// (mine).
    pub fn gain_to_hand(&mut self, card: Card) {
        self.supply.take(card);
        self.gained.push(card);
        let newest = self.rules.newest;
        newest.put(&mut self.players[self.current].hand, card);
    }

    /// The current player gains `card` from the supply onto the discard
    /// pile (buys, remodel, workshop).
    pub fn gain_to_discard(&mut self, card: Card) {
        self.supply.take(card);
        self.gained.push(card);
        let newest = self.rules.newest;
        newest.put(&mut self.players[self.current].discard, card);
    }

    /// The end of every turn, once the protocol's clean-up has put the hand
    /// and the play area on the discard pile: the player draws 5 and counts
    /// the turn, the next seat starts with 1 action, 1 buy and no coins, and
    /// the end check runs (dominion-text §3.3, §3.8; dominion-sexp §3.4,
    /// §3.6). The turn cap is reached when the last seat has taken it (a
    /// game adopted from a scripted state may start at another seat). Once
    /// ended, the game stays ended.
    pub fn finish_turn(&mut self, shuffler: &mut dyn Shuffler) -> Option<Ending> {
        let seat = self.current;
        let last_seat = seat + 1 == self.players.len();
        let newest = self.rules.newest;
        let player = &mut self.players[seat];
        player.draw(HAND_SIZE, newest, shuffler);
        player.turns += 1;
        let capped = last_seat && player.turns >= self.turn_cap;
        self.current = (seat + 1) % self.players.len();
        self.actions = 1;
        self.buys = 1;
        self.coins = 0;
        self.gained.clear();
        let supply = &self.supply;
        let provinces = supply.count(Card::Province);
        if let Some(ending) = self
            .rules
            .end
            .ending(provinces, || supply.empty_piles(), capped)
        {
            self.ended = Some(ending);
        }
        self.ended
    }

    /// Victory points per seat (dominion-text §3.8, dominion-sexp §3.6).
    pub fn scores(&self) -> Vec<i32> {
        self.players.iter().map(SeatedPlayer::score).collect()
    }

    /// The seats with the top score, ties broken as the rules say.
    pub fn winners(&self) -> Vec<usize> {
        self.rules
            .end
            .winners(self.players.iter().map(|p| (p.score(), p.turns)))
    }
}
