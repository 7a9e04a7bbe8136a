//! The dealer's side of a whole game, as a state machine the controller
//! drives: turns begin (`start`, `choose`), the bot's Action4 is applied with
//! everyone else's, and the feeding cycle runs until the bot has a real
//! choice (`feedNext`) or the turn ends. Built-in players fill the other
//! seats. Pure: no I/O; the session turns its messages into bytes.

use super::action4::Action4;
use super::engine::{Dealer, FeedOption};
use super::messages::{Choose, Start, State};
use super::model::{Card, Species, full_deck};
use super::strategy::{self, FatRequest};
use std::collections::VecDeque;

/// How a built-in player plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// The reference strategy: adds a board, grows it, replaces its trait,
    /// attacks (rules digest §3.12).
    Reference,
    /// Plays only its food card; feeds like the reference.
    Simple,
}

/// A turn can go on for ever only through a bug: a harness limit.
pub const MAX_TURNS: u32 = 200;

/// What the dealer wants from the bot next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `start` then `choose`.
    Turn(Start, Choose),
    /// `feedNext`, with the options the bot has.
    Feed(State, Vec<FeedOption>),
    /// The game is over: close the connection.
    End,
}

/// The game from the dealer's view, with the bot's seat known.
#[derive(Clone, Debug)]
pub struct Table {
    pub dealer: Dealer,
    pub bot: u64,
    styles: Vec<Style>,
    /// The feeding queue of the cycle under way (player ids).
    queue: VecDeque<u64>,
    /// Whether a feeding cycle is under way.
    feeding: bool,
    pub turn: u32,
    /// The hand and boards of the bot's latest `start`.
    pub start_hand: Vec<Card>,
    pub start_boards: Vec<Species>,
}

impl Table {
    /// `players` seats; the bot sits at `seat` (0 = plays first); the deck
    /// is shuffled by `rng` (`sorted`: the reference's unshuffled deck).
    pub fn new(players: usize, seat: usize, styles: &[Style], rng: &mut fastrand::Rng) -> Table {
        let mut dealer = Dealer::new(0..players as u64);
        let mut deck = full_deck();
        rng.shuffle(&mut deck);
        dealer.deck = deck.into();
        Table {
            dealer,
            bot: seat as u64,
            styles: styles.to_vec(),
            queue: VecDeque::new(),
            feeding: false,
            turn: 0,
            start_hand: Vec::new(),
            start_boards: Vec::new(),
        }
    }

    fn style(&self, id: u64) -> Style {
        self.styles
            .get(id as usize % self.styles.len().max(1))
            .copied()
            .unwrap_or(Style::Reference)
    }

    pub fn bot_index(&self) -> Option<usize> {
        self.dealer.index_of(self.bot)
    }

    /// Whether another turn can be dealt (every hand at `choose` has at
    /// least 4 cards, §3.10).
    pub fn can_deal(&self) -> bool {
        !self.dealer.over() && self.turn < MAX_TURNS && self.bot_index().is_some()
    }

    /// Step 1 of a new turn: boards and cards. The bot's messages follow.
    pub fn deal_turn(&mut self) {
        self.turn += 1;
        self.dealer.step1();
        self.remember_start();
    }

    pub fn remember_start(&mut self) {
        if let Some(b) = self.bot_index() {
            self.start_hand = self.dealer.players[b].hand.clone();
            self.start_boards = self.dealer.players[b].boards.clone();
        }
    }

    /// The bot's `start` and `choose` for the turn dealt.
    pub fn turn_messages(&self) -> (Start, Choose) {
        let b = self.bot_index().unwrap_or(0);
        let me = &self.dealer.players[b];
        let start = Start(
            self.dealer.watering_hole,
            me.bag,
            me.boards.clone(),
            me.hand.clone(),
        );
        let boards = |p: &super::engine::Player| p.boards.clone();
        let before = self.dealer.players[..b].iter().map(boards).collect();
        let after = self.dealer.players[b..].iter().map(boards).collect();
        (start, Choose(before, after))
    }

    /// The bot's Action4 is in (validated): every other player chooses,
    /// everything is applied in turn order, and feeding begins.
    pub fn apply_turn(&mut self, bot_action: Action4) {
        let actions: Vec<Action4> = (0..self.dealer.players.len())
            .map(|p| {
                let player = &self.dealer.players[p];
                if player.id == self.bot {
                    bot_action.clone()
                } else {
                    self.builtin_action(p)
                }
            })
            .collect();
        self.dealer.apply_actions(&actions);
        self.dealer.automatic_phase();
        self.queue = self.dealer.players.iter().map(|p| p.id).collect();
        self.feeding = true;
    }

    fn builtin_action(&self, p: usize) -> Action4 {
        let player = &self.dealer.players[p];
        let minimal = Action4::default();
        match self.style(player.id) {
            Style::Simple => minimal,
            Style::Reference => strategy::choose(&player.boards, &player.hand)
                .filter(|a| a.validate(&player.boards, &player.hand).is_ok())
                .unwrap_or(minimal),
        }
    }

    /// Run the feeding cycle (and further turns' dealing) until the bot must
    /// be asked something, or the game ends.
    pub fn advance(&mut self) -> Request {
        if self.feeding {
            if let Some(request) = self.feed_until_bot_asked() {
                return request;
            }
            self.feeding = false;
            self.dealer.cleanup();
            self.dealer.rotate();
        }
        if !self.can_deal() {
            return Request::End;
        }
        self.deal_turn();
        let (start, choose) = self.turn_messages();
        Request::Turn(start, choose)
    }

    /// The feeding loop (§3.5); `Some` when the bot has two or more options.
    fn feed_until_bot_asked(&mut self) -> Option<Request> {
        let bot = self.bot;
        while self.dealer.watering_hole > 0
            && self.queue.iter().any(|&id| {
                self.dealer
                    .index_of(id)
                    .is_some_and(|p| !self.dealer.options_of(p).is_empty())
            })
        {
            let front = *self.queue.front()?;
            if front == bot
                && let Some(b) = self.bot_index()
            {
                let options = self.dealer.options_of(b);
                if options.len() >= 2 {
                    return Some(Request::Feed(self.state_for(b), options));
                }
            }
            self.dealer
                .feed1(&mut self.queue, &mut |d: &Dealer, p, _| builtin_feed(d, p));
        }
        None
    }

    /// The State the bot is sent.
    pub fn state_for(&self, b: usize) -> State {
        let me = &self.dealer.players[b];
        let others = self
            .dealer
            .others(b)
            .into_iter()
            .map(|o| self.dealer.players[o].boards.clone())
            .collect();
        State(
            me.bag,
            me.boards.clone(),
            me.hand.clone(),
            self.dealer.watering_hole,
            others,
        )
    }

    /// Apply the bot's (accepted) feeding choice and move it to the back.
    pub fn apply_bot_feed(&mut self, choice: FeedOption) {
        if let Some(b) = self.bot_index() {
            self.dealer.apply_option(b, choice);
        }
        self.queue.rotate_left(1);
    }
}

/// A built-in player's feeding choice: the reference strategy's.
fn builtin_feed(d: &Dealer, p: usize) -> Option<FeedOption> {
    let others: Vec<&[Species]> = d
        .others(p)
        .into_iter()
        .map(|o| d.players[o].boards.as_slice())
        .collect();
    strategy::feed(&d.players[p].boards, &others, FatRequest::Room)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whole games with a bot that plays like a built-in player: every
    /// request is well-formed and the game ends.
    #[test]
    fn whole_games_for_every_player_count_and_seat_end_with_legal_requests() {
        for players in 3..=8usize {
            for seat in 0..players {
                let mut rng = fastrand::Rng::with_seed((players * 10 + seat) as u64);
                let mut t = Table::new(players, seat, &[Style::Reference, Style::Simple], &mut rng);
                let mut asked = 0;
                loop {
                    match t.advance() {
                        Request::Turn(start, _) => {
                            assert!(start.3.len() >= 4, "hand of {}", start.3.len());
                            let b = t.bot_index().unwrap();
                            let p = &t.dealer.players[b];
                            let a = strategy::choose(&p.boards, &p.hand).unwrap();
                            a.validate(&t.start_boards, &t.start_hand).unwrap();
                            t.apply_turn(a);
                        }
                        Request::Feed(state, options) => {
                            assert!(state.3 >= 1 && options.len() >= 2);
                            asked += 1;
                            let b = t.bot_index().unwrap();
                            let choice = builtin_feed(&t.dealer, b).unwrap();
                            assert!(options.iter().any(|o| o.accepts(choice)));
                            t.apply_bot_feed(choice);
                        }
                        Request::End => break,
                    }
                }
                assert!(
                    t.turn >= 2,
                    "{players} players, seat {seat}: {} turns",
                    t.turn
                );
                let _ = asked;
            }
        }
    }
}
