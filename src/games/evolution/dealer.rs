//! The dealer's side of a whole game, as a state machine the controller
//! drives: turns begin (`start`, `choose`), the bot's Action4 is applied with
//! everyone else's, and the feeding cycle runs until the bot has a real
//! choice (`feedNext`) or the turn ends. Built-in players fill the other
//! seats, or (`protocheck match`) other clients do: their moves come
//! relayed, each from its own session, and are applied here in the order
//! the reference server takes them. Pure: no I/O; the session turns its
//! messages into bytes.

use super::action4::Action4;
use super::engine::{Dealer, FeedOption};
use super::messages::{Choose, Start, State};
use super::model::{Card, Species, full_deck};
use super::strategy::{self, FatRequest};
use std::collections::{BTreeMap, VecDeque};

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
    /// `start` alone: a relayed player chooses before the bot this turn,
    /// and the reference asks one player at a time, so `choose` waits.
    Start(Start),
    /// The `choose` a `Start` left owed, now that the players before the
    /// bot have chosen.
    Choose(Choose),
    /// Nothing can happen until the relayed player with this id moves.
    Wait(u64),
    /// A relayed move this table cannot take (the sessions of one table
    /// disagree): protocheck's own trouble, never the bot's.
    Disagree(String),
}

/// A move made by a client at another seat, judged legal by its own
/// session (`protocheck match`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relayed {
    Action(Action4),
    Feed(FeedOption),
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
    /// Ids of the players whose moves come relayed (other clients).
    relayed: Vec<u64>,
    /// Relayed moves not yet taken, by player id, in the order made.
    inbox: BTreeMap<u64, VecDeque<Relayed>>,
    /// This turn's Action4s by turn-order position, while they are
    /// collected (steps 2–3); `None` outside them.
    choosing: Option<Vec<Option<Action4>>>,
    /// This turn's `start` went out before its `choose`.
    start_sent: bool,
    /// A relayed move this table could not take, reported at the next
    /// `advance`.
    disagreement: Option<String>,
    /// A generated game's aims (`Session::aim`): the bot's deal prefers
    /// cards that make a missing situation reachable
    /// (`coverage::aim_deal`). `None`: the deal is the seed's.
    pub aims: Option<crate::coverage::Aims>,
    /// The situations the game reached so far (the coverage report).
    pub reached: crate::coverage::Reached,
}

/// Where collecting a turn's Action4s stopped.
enum Collected {
    /// Every player has chosen.
    All,
    /// The bot is next to choose.
    Bot,
    /// The relayed player with this id is next, and has not chosen yet.
    Wait(u64),
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
            relayed: Vec::new(),
            inbox: BTreeMap::new(),
            choosing: None,
            start_sent: false,
            disagreement: None,
            aims: None,
            reached: crate::coverage::Reached::new(),
        }
    }

    /// The players with these ids are other clients: their moves come
    /// through `relay`, in the order they make them.
    pub fn with_relayed(mut self, ids: impl IntoIterator<Item = u64>) -> Table {
        self.relayed = ids.into_iter().filter(|&id| id != self.bot).collect();
        self
    }

    /// How many other clients sit at this table.
    pub fn relayed_count(&self) -> usize {
        self.relayed.len()
    }

    pub fn is_relayed(&self, id: u64) -> bool {
        self.relayed.contains(&id)
    }

    /// A relayed player's move, kept until the game reaches it.
    pub fn relay(&mut self, id: u64, mv: Relayed) {
        self.inbox.entry(id).or_default().push_back(mv);
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
        self.dealer.give_fresh_boards();
        self.aim_deal();
        self.dealer.deal_turn_cards();
        self.remember_start();
        self.choosing = Some(vec![None; self.dealer.players.len()]);
        self.start_sent = false;
    }

    /// An aimed game: the cards step 1 is about to deal the bot (after the
    /// players before it in turn order) are chosen by what they make
    /// reachable (`coverage::aim_deal`).
    fn aim_deal(&mut self) {
        let (Some(aims), Some(b)) = (&self.aims, self.bot_index()) else {
            return;
        };
        let dealt = |p: &super::engine::Player| {
            super::engine::CARDS_PER_PLAYER + super::engine::CARDS_PER_BOARD * p.boards.len()
        };
        let players = &self.dealer.players;
        let first = players[..b].iter().map(dealt).sum::<usize>();
        let me = &players[b];
        super::coverage::aim_deal(
            aims,
            &self.reached,
            &me.boards,
            &mut self.dealer.deck,
            first..first + dealt(me),
        );
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

    /// The bot's Action4 is in (validated): the players after it choose,
    /// and once every Action4 is in, everything is applied in turn order
    /// and feeding begins. A relayed player's Action4 not in yet leaves the
    /// turn waiting for it (`advance`).
    pub fn apply_turn(&mut self, bot_action: Action4) {
        let Some(b) = self.bot_index() else {
            return;
        };
        let n = self.dealer.players.len();
        if let Some(slot) = self
            .choosing
            .get_or_insert_with(|| vec![None; n])
            .get_mut(b)
        {
            *slot = Some(bot_action);
        }
        match self.collect_actions() {
            Ok(Collected::All) => self.end_choosing(),
            Ok(_) => {}
            Err(e) => self.disagreement = Some(e),
        }
    }

    /// Fill in this turn's Action4s in turn order, up to the bot's (not
    /// chosen yet) or a relayed one not relayed yet. Built-in players choose
    /// on the state of `start` (nothing is applied before all have chosen).
    fn collect_actions(&mut self) -> Result<Collected, String> {
        let n = self.dealer.players.len();
        for p in 0..n {
            if self.choosing.as_ref().is_some_and(|c| c[p].is_some()) {
                continue;
            }
            let id = self.dealer.players[p].id;
            let action = if id == self.bot {
                return Ok(Collected::Bot);
            } else if self.is_relayed(id) {
                match self.inbox.get_mut(&id).and_then(VecDeque::pop_front) {
                    None => return Ok(Collected::Wait(id)),
                    Some(Relayed::Action(a)) => a,
                    Some(Relayed::Feed(f)) => {
                        return Err(format!(
                            "player {} was relayed the feeding choice {} where its Action4 is due",
                            id + 1,
                            f.to_json()
                        ));
                    }
                }
            } else {
                self.builtin_action(p)
            };
            if let Some(slot) = self.choosing.as_mut().and_then(|c| c.get_mut(p)) {
                *slot = Some(action);
            }
        }
        Ok(Collected::All)
    }

    /// Step 4 begins: every Action4 applied in turn order, the automatic
    /// phase, the feeding queue.
    fn end_choosing(&mut self) {
        let actions: Vec<Action4> = self
            .choosing
            .take()
            .unwrap_or_default()
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect();
        self.dealer.apply_actions(&actions);
        self.dealer.automatic_phase();
        self.queue = self.dealer.players.iter().map(|p| p.id).collect();
        self.feeding = true;
    }

    fn builtin_action(&self, p: usize) -> Action4 {
        let player = &self.dealer.players[p];
        let minimal = Action4::default();
        let feed = self.feeding_wanted();
        let most_food = || {
            let food = (0..player.hand.len()).fold(None, |m: Option<usize>, k| match m {
                Some(m) if player.hand[m].food >= player.hand[k].food => Some(m),
                _ => Some(k),
            });
            Action4 {
                food_card: food.unwrap_or(0) as u64,
                ..Action4::default()
            }
        };
        match self.style(player.id) {
            Style::Simple if feed => most_food(),
            Style::Simple => minimal,
            Style::Reference => if feed {
                strategy::choose_most_food(&player.boards, &player.hand)
            } else {
                strategy::choose(&player.boards, &player.hand)
            }
            .filter(|a| a.validate(&player.boards, &player.hand).is_ok())
            .unwrap_or(minimal),
        }
    }

    /// An aimed game (`coverage::Aims`) where a trait the bot holds, on a
    /// board or in its hand, has not been seen in a feeding decision: the
    /// built-in players give up their cards with the most food, so the
    /// watering hole has food for the bot to be asked about.
    fn feeding_wanted(&self) -> bool {
        let (Some(aims), Some(b)) = (&self.aims, self.bot_index()) else {
            return false;
        };
        let me = &self.dealer.players[b];
        super::model::Trait::ALL.iter().enumerate().any(|(i, t)| {
            (me.boards.iter().any(|s| s.has(*t)) || me.hand.iter().any(|c| c.trait_ == *t))
                && aims.wants(&super::coverage::TRAIT_IN_FEEDING[i], &self.reached)
        })
    }

    /// Run the turn on (relayed players' Action4s, the feeding cycle,
    /// further turns' dealing) until the bot must be told or asked
    /// something, a relayed player must move first, or the game ends.
    pub fn advance(&mut self) -> Request {
        if let Some(e) = self.disagreement.take() {
            return Request::Disagree(e);
        }
        if self.choosing.is_some() {
            match self.collect_actions() {
                Err(e) => return Request::Disagree(e),
                Ok(Collected::Wait(id)) => return Request::Wait(id),
                Ok(Collected::Bot) => {
                    let (start, choose) = self.turn_messages();
                    return if std::mem::replace(&mut self.start_sent, true) {
                        Request::Choose(choose)
                    } else {
                        Request::Turn(start, choose)
                    };
                }
                Ok(Collected::All) => self.end_choosing(),
            }
        }
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
        match self.collect_actions() {
            Err(e) => Request::Disagree(e),
            Ok(Collected::Wait(_)) => {
                // Every player gets `start` first (§3.3 step 1); `choose`
                // follows once the players before the bot have chosen.
                self.start_sent = true;
                Request::Start(self.turn_messages().0)
            }
            Ok(_) => {
                self.start_sent = true;
                let (start, choose) = self.turn_messages();
                Request::Turn(start, choose)
            }
        }
    }

    /// The feeding loop (§3.5); `Some` when the bot has two or more options,
    /// or a relayed player with two or more has not chosen yet.
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
            if self.is_relayed(front)
                && let Some(p) = self.dealer.index_of(front)
            {
                let options = self.dealer.options_of(p);
                if options.len() >= 2 {
                    let choice = match self.inbox.get_mut(&front).and_then(VecDeque::pop_front) {
                        None => return Some(Request::Wait(front)),
                        Some(Relayed::Feed(choice)) => choice,
                        Some(Relayed::Action(a)) => {
                            return Some(Request::Disagree(format!(
                                "player {} was relayed the Action4 {} where a feeding choice is due",
                                front + 1,
                                a.to_json()
                            )));
                        }
                    };
                    if !options.iter().any(|o| o.accepts(choice)) {
                        return Some(Request::Disagree(format!(
                            "player {}'s feeding choice {} is not one of its options here",
                            front + 1,
                            choice.to_json()
                        )));
                    }
                    self.dealer.apply_option(p, choice);
                    self.queue.rotate_left(1);
                    continue;
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

    /// Every request of a whole game against a bot that plays like a
    /// built-in player.
    fn whole_game(mut t: Table) -> Vec<Request> {
        let mut requests = Vec::new();
        loop {
            let request = t.advance();
            requests.push(request.clone());
            match request {
                Request::Turn(..) => {
                    let p = &t.dealer.players[t.bot_index().unwrap()];
                    let a = strategy::choose(&p.boards, &p.hand).unwrap();
                    t.apply_turn(a);
                }
                Request::Feed(state, options) => {
                    super::super::coverage::feeding_asked(&mut t.reached, &state.1, &options);
                    let choice = builtin_feed(&t.dealer, t.bot_index().unwrap()).unwrap();
                    t.apply_bot_feed(choice);
                }
                _ => return requests,
            }
        }
    }

    #[test]
    fn an_aimed_game_with_nothing_left_to_aim_at_deals_as_the_seed_does() {
        use crate::coverage::{Aims, Coverage};
        let styles = [Style::Reference, Style::Simple];
        let table = |aims: Option<Aims>| {
            let mut t = Table::new(5, 2, &styles, &mut fastrand::Rng::with_seed(7));
            t.aims = aims;
            t
        };
        let usual = whole_game(table(None));
        let mut all = Coverage::default();
        for s in super::super::coverage::SITUATIONS {
            all.reached(s.id, 1);
        }
        assert_eq!(whole_game(table(Some(Aims::after([&all])))), usual);
        // With everything wanted, the bot is dealt a hand of one trait.
        let aimed = whole_game(table(Some(Aims::default())));
        assert_ne!(aimed, usual);
        let Request::Turn(start, _) = &aimed[0] else {
            panic!("{:?}", aimed[0]);
        };
        assert!(start.3.iter().all(|c| c.trait_ == start.3[0].trait_), "{:?}", start.3);
    }

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
                        other => panic!("no seat is relayed, yet {other:?}"),
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
