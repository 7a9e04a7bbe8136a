//! The dealer's rule engine (rules digest §3): players, deck, the steps of a
//! turn, the feeding cycle with its automatic feedings, attacks, extinction,
//! scoring and the end of the game. Pure: no I/O, no clock; whoever asks a
//! player for a choice is passed in as a closure.

use super::action4::Action4;
use super::model::{Card, MAX_POPULATION, Species, Trait, full_deck};
use std::collections::VecDeque;

/// Cards dealt per player and per board at step 1, and per extinction.
pub const CARDS_PER_PLAYER: usize = 3;
pub const CARDS_PER_BOARD: usize = 1;
pub const EXTINCTION_CARDS: usize = 2;
/// Hard-shell's margin in the reference's attack test.
pub const HARD_SHELL_MARGIN: u32 = 4;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Stable identity (seat numbers shift when players are dropped).
    pub id: u64,
    pub boards: Vec<Species>,
    pub bag: u32,
    pub hand: Vec<Card>,
}

/// One feeding option of a player (§3.5). `player` of an attack indexes the
/// asking player's `others` list (turn order after it, wrapping around).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedOption {
    Vegetarian(usize),
    /// Store fat on `species`; `amount` is the room (`body − fat store`) in
    /// an option, and the requested amount (1…room) in a choice.
    Fat {
        species: usize,
        amount: u32,
    },
    Attack {
        attacker: usize,
        player: usize,
        target: usize,
    },
}

impl FeedOption {
    /// The FeedingChoice JSON of this option.
    pub fn to_json(self) -> serde_json::Value {
        match self {
            FeedOption::Vegetarian(s) => serde_json::json!(s),
            FeedOption::Fat { species, amount } => serde_json::json!([species, amount]),
            FeedOption::Attack {
                attacker,
                player,
                target,
            } => serde_json::json!([attacker, player, target]),
        }
    }

    /// Whether a choice is acceptable for this option: equal, or for fat
    /// any amount from 1 to the room (§3.5, loop step 4).
    pub fn accepts(self, choice: FeedOption) -> bool {
        match (self, choice) {
            (
                FeedOption::Fat { species, amount },
                FeedOption::Fat {
                    species: s,
                    amount: n,
                },
            ) => species == s && (1..=amount).contains(&n),
            _ => self == choice,
        }
    }
}

/// The reference's attack test (§3.7): may `attacker` attack `defender`,
/// whose neighbours on its owner's board list are `left` and `right`?
pub fn attackable(
    attacker: &Species,
    defender: &Species,
    left: Option<&Species>,
    right: Option<&Species>,
) -> bool {
    let warned = [left, right]
        .into_iter()
        .flatten()
        .any(|n| n.has(Trait::WarningCall));
    // Pack-hunting counts body toward population in the herding test, for
    // either side (reference quirk, D14).
    let herd_size = |s: &Species| {
        if s.has(Trait::PackHunting) {
            s.body + s.population
        } else {
            s.population
        }
    };
    // Hard-shell's body: +4 for any hard-shell species (attacker too: quirk).
    let shell_body = |s: &Species| {
        if s.has(Trait::HardShell) {
            s.body + HARD_SHELL_MARGIN
        } else if s.has(Trait::PackHunting) && s.has(Trait::Carnivore) {
            s.body + s.population
        } else {
            s.body
        }
    };
    !((warned && !attacker.has(Trait::Ambush))
        || (defender.has(Trait::Burrowing) && !defender.hungry())
        || (defender.has(Trait::Climbing) && !attacker.has(Trait::Climbing))
        || (defender.has(Trait::Herding) && herd_size(attacker) <= herd_size(defender))
        || (defender.has(Trait::HardShell) && shell_body(attacker) <= shell_body(defender)))
}

/// The attack test of the published trait texts (§3.7, "rules predicate"),
/// used only for warnings where it is stricter than the reference.
pub fn attackable_by_rules(
    attacker: &Species,
    defender: &Species,
    left: Option<&Species>,
    right: Option<&Species>,
) -> bool {
    let warned = [left, right]
        .into_iter()
        .flatten()
        .any(|n| n.has(Trait::WarningCall));
    let attack_body = attacker.body
        + if attacker.has(Trait::PackHunting) {
            attacker.population
        } else {
            0
        };
    !((warned && !attacker.has(Trait::Ambush))
        || (defender.has(Trait::Burrowing) && !defender.hungry())
        || (defender.has(Trait::Climbing) && !attacker.has(Trait::Climbing))
        || (defender.has(Trait::Herding) && attacker.population <= defender.population)
        || (defender.has(Trait::HardShell) && attack_body < defender.body + HARD_SHELL_MARGIN)
        || (defender.has(Trait::Symbiosis) && right.is_some_and(|r| r.body > defender.body)))
}

/// The targets `attacker` may attack on one player's boards, from the
/// rightmost to the leftmost (the reference's listing order).
pub fn targets(attacker: &Species, boards: &[Species]) -> Vec<usize> {
    (0..boards.len())
        .rev()
        .filter(|&i| {
            let left = i.checked_sub(1).map(|l| &boards[l]);
            attackable(attacker, &boards[i], left, boards.get(i + 1))
        })
        .collect()
}

/// A player's feeding options (§3.5), in the reference's order: vegetarian,
/// fat, attacks (by carnivore, then by other player, then right to left).
pub fn options(boards: &[Species], others: &[&[Species]]) -> Vec<FeedOption> {
    let mut out: Vec<FeedOption> = boards
        .iter()
        .enumerate()
        .filter(|(_, s)| s.hungry() && !s.has(Trait::Carnivore))
        .map(|(i, _)| FeedOption::Vegetarian(i))
        .collect();
    out.extend(
        boards
            .iter()
            .enumerate()
            .filter(|(_, s)| s.fat_room() > 0)
            .map(|(i, s)| FeedOption::Fat {
                species: i,
                amount: s.fat_room(),
            }),
    );
    for (c, attacker) in boards.iter().enumerate() {
        if !(attacker.hungry() && attacker.has(Trait::Carnivore)) {
            continue;
        }
        for (p, other) in others.iter().enumerate() {
            for target in targets(attacker, other) {
                out.push(FeedOption::Attack {
                    attacker: c,
                    player: p,
                    target,
                });
            }
        }
    }
    out
}

/// What became of one step of the feeding loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fed {
    /// The player had no option (or the watering hole was empty).
    Nothing,
    /// Its single option was applied without asking.
    Automatic(FeedOption),
    /// It was asked and its choice was applied.
    Chosen(FeedOption),
    /// It was asked and gave no acceptable choice: dropped from the game.
    Dropped,
}

/// The whole game state the dealer keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dealer {
    /// In the current turn order (the first one plays first).
    pub players: Vec<Player>,
    pub watering_hole: u32,
    /// Top card first.
    pub deck: VecDeque<Card>,
}

impl Dealer {
    /// Players with the given ids, no boards, and the reference's sorted deck.
    pub fn new(ids: impl IntoIterator<Item = u64>) -> Dealer {
        Dealer {
            players: ids
                .into_iter()
                .map(|id| Player {
                    id,
                    ..Player::default()
                })
                .collect(),
            watering_hole: 0,
            deck: full_deck().into(),
        }
    }

    pub fn index_of(&self, id: u64) -> Option<usize> {
        self.players.iter().position(|p| p.id == id)
    }

    /// Seats of the other players as the asking player sees them: after it
    /// in turn order, wrapping around.
    pub fn others(&self, p: usize) -> Vec<usize> {
        let n = self.players.len();
        (1..n).map(|k| (p + k) % n).collect()
    }

    pub fn options_of(&self, p: usize) -> Vec<FeedOption> {
        let others: Vec<&[Species]> = self
            .others(p)
            .into_iter()
            .map(|o| self.players[o].boards.as_slice())
            .collect();
        options(&self.players[p].boards, &others)
    }

    /// Deal up to `n` cards from the top to the front of a hand, in deck order.
    pub fn deal(&mut self, p: usize, n: usize) {
        let n = n.min(self.deck.len());
        let dealt: Vec<Card> = self.deck.drain(..n).collect();
        self.players[p].hand.splice(0..0, dealt);
    }

    /// Step 1: fresh boards for players without one, then 3 + boards cards each.
    pub fn step1(&mut self) {
        self.give_fresh_boards();
        self.deal_turn_cards();
    }

    /// Step 1's first half: a fresh board for every player without one.
    pub fn give_fresh_boards(&mut self) {
        for p in &mut self.players {
            if p.boards.is_empty() {
                p.boards.push(Species::fresh(Vec::new()));
            }
        }
    }

    /// Step 1's second half: 3 + boards cards each, in turn order.
    pub fn deal_turn_cards(&mut self) {
        for p in 0..self.players.len() {
            let n = CARDS_PER_PLAYER + CARDS_PER_BOARD * self.players[p].boards.len();
            self.deal(p, n);
        }
    }

    /// The reference's end test, before a turn (§3.10): too few cards for
    /// 3 + current boards per player, or nobody left.
    pub fn over_reference(&self) -> bool {
        let needed: usize = self
            .players
            .iter()
            .map(|p| CARDS_PER_PLAYER + CARDS_PER_BOARD * p.boards.len())
            .sum();
        self.players.is_empty() || self.deck.len() < needed
    }

    /// protocheck's end test for generated games: counts the fresh board a
    /// board-less player will get, so every hand at `choose` has ≥ 4 cards.
    pub fn over(&self) -> bool {
        let needed: usize = self
            .players
            .iter()
            .map(|p| CARDS_PER_PLAYER + CARDS_PER_BOARD * p.boards.len().max(1))
            .sum();
        self.players.is_empty() || self.deck.len() < needed
    }

    /// Step 4, first part: apply every (validated) Action4 in turn order and
    /// add its food card to the watering hole, clamping after each player.
    pub fn apply_actions(&mut self, actions: &[Action4]) {
        for (p, action) in self.players.iter_mut().zip(actions) {
            let food = action.apply(&mut p.boards, &mut p.hand);
            self.watering_hole = (self.watering_hole as i64 + food.food as i64).max(0) as u32;
        }
    }

    /// One feeding of species `s` of player `p` (§3.6), with foraging and
    /// cooperation, in the reference's order.
    pub fn feed_species(&mut self, p: usize, s: usize) {
        let Some((foraging, neighbour)) = self.take_token(p, s) else {
            return;
        };
        if foraging && self.take_token(p, s).is_some() {
            self.cooperate(p, neighbour);
        }
        self.cooperate(p, neighbour);
    }

    fn cooperate(&mut self, p: usize, neighbour: Option<usize>) {
        if let Some(n) = neighbour {
            self.feed_species(p, n);
        }
    }

    /// Take one token if there is one and `s` is hungry; then whether it
    /// forages, and the neighbour it cooperates with.
    fn take_token(&mut self, p: usize, s: usize) -> Option<(bool, Option<usize>)> {
        let boards = &mut self.players[p].boards;
        if self.watering_hole == 0 || !boards[s].hungry() {
            return None;
        }
        self.watering_hole -= 1;
        boards[s].food += 1;
        let neighbour =
            (boards[s].has(Trait::Cooperation) && s + 1 < boards.len()).then_some(s + 1);
        Some((boards[s].has(Trait::Foraging), neighbour))
    }

    /// Move up to `n` tokens (at most what the watering hole holds) into a fat store.
    pub fn store_fat(&mut self, p: usize, s: usize, n: u32) {
        let moved = n.min(self.watering_hole);
        self.watering_hole -= moved;
        self.players[p].boards[s].fat_food += moved;
    }

    /// Remove a species that died; its owner gets 2 cards at once.
    fn extinguish(&mut self, p: usize, s: usize) {
        self.players[p].boards.remove(s);
        self.deal(p, EXTINCTION_CARDS);
    }

    /// One population lost; true when the species died of it.
    fn kill1(&mut self, p: usize, s: usize) -> bool {
        let sp = &mut self.players[p].boards[s];
        sp.population -= 1;
        sp.food = sp.food.min(sp.population);
        if sp.population == 0 {
            self.extinguish(p, s);
            true
        } else {
            false
        }
    }

    /// Attack by `p`'s board `attacker` on board `target` of seat `defender` (§3.5).
    pub fn attack(&mut self, p: usize, attacker: usize, defender: usize, target: usize) {
        let horns = self.players[defender].boards[target].has(Trait::Horns);
        self.kill1(defender, target);
        if horns && self.kill1(p, attacker) {
            return;
        }
        self.feed_species(p, attacker);
        self.feed_scavengers(p);
    }

    /// Every scavenger, players from `p` on in turn order, boards left to right.
    pub fn feed_scavengers(&mut self, p: usize) {
        self.for_all_from(p, Trait::Scavenger, |d, q, s| d.feed_species(q, s));
    }

    fn for_all_from(
        &mut self,
        first: usize,
        t: Trait,
        mut act: impl FnMut(&mut Dealer, usize, usize),
    ) {
        let n = self.players.len();
        for k in 0..n {
            let q = (first + k) % n;
            let with: Vec<usize> = (0..self.players[q].boards.len())
                .filter(|&s| self.players[q].boards[s].has(t))
                .collect();
            for s in with {
                act(self, q, s);
            }
        }
    }

    /// Apply an option chosen by (or for) seat `p`.
    pub fn apply_option(&mut self, p: usize, option: FeedOption) {
        match option {
            FeedOption::Vegetarian(s) => self.feed_species(p, s),
            FeedOption::Fat { species, amount } => self.store_fat(p, species, amount),
            FeedOption::Attack {
                attacker,
                player,
                target,
            } => {
                let defender = self.others(p)[player];
                self.attack(p, attacker, defender, target);
            }
        }
    }

    /// The automatic phase (§3.5): all fertile, then all long-neck, then all
    /// fat moves, players in turn order, boards left to right.
    pub fn automatic_phase(&mut self) {
        self.for_all_from(0, Trait::Fertile, |d, p, s| {
            let sp = &mut d.players[p].boards[s];
            if sp.population < MAX_POPULATION {
                sp.population += 1;
            }
        });
        self.for_all_from(0, Trait::LongNeck, |d, p, s| d.feed_species(p, s));
        self.for_all_from(0, Trait::FatTissue, |d, p, s| {
            let sp = &mut d.players[p].boards[s];
            let moved = sp.fat_food.min(sp.population.saturating_sub(sp.food));
            sp.fat_food -= moved;
            sp.food += moved;
        });
    }

    /// One step of the feeding loop for the player at the front of `queue`
    /// (player ids). `ask` is called only with two or more options and
    /// returns the choice, or `None` for a reply that drops the player.
    pub fn feed1(
        &mut self,
        queue: &mut VecDeque<u64>,
        ask: &mut impl FnMut(&Dealer, usize, &[FeedOption]) -> Option<FeedOption>,
    ) -> Fed {
        let Some(&id) = queue.front() else {
            return Fed::Nothing;
        };
        let Some(p) = self.index_of(id) else {
            queue.pop_front();
            return Fed::Nothing;
        };
        let options = if self.watering_hole == 0 {
            Vec::new()
        } else {
            self.options_of(p)
        };
        let fed = match options.as_slice() {
            [] => Fed::Nothing,
            [only] => {
                self.apply_option(p, *only);
                Fed::Automatic(*only)
            }
            _ => match ask(self, p, &options) {
                Some(choice) if options.iter().any(|o| o.accepts(choice)) => {
                    self.apply_option(p, choice);
                    Fed::Chosen(choice)
                }
                _ => {
                    queue.pop_front();
                    self.players.remove(p);
                    return Fed::Dropped;
                }
            },
        };
        queue.rotate_left(1);
        fed
    }

    /// The whole feeding cycle of step 4: the automatic phase, then the loop
    /// while food remains and someone in the queue has an option.
    pub fn feeding_cycle(
        &mut self,
        ask: &mut impl FnMut(&Dealer, usize, &[FeedOption]) -> Option<FeedOption>,
    ) {
        self.automatic_phase();
        let mut queue: VecDeque<u64> = self.players.iter().map(|p| p.id).collect();
        while self.watering_hole > 0
            && queue.iter().any(|&id| {
                self.index_of(id)
                    .is_some_and(|p| !self.options_of(p).is_empty())
            })
        {
            self.feed1(&mut queue, ask);
        }
    }

    /// Clean-up (§3.3, item 4): population := food (extinction deals 2
    /// cards), then food moves into bags.
    pub fn cleanup(&mut self) {
        for p in 0..self.players.len() {
            let mut s = 0;
            while s < self.players[p].boards.len() {
                let sp = &mut self.players[p].boards[s];
                sp.population = sp.food;
                if sp.population == 0 {
                    self.extinguish(p, s);
                } else {
                    s += 1;
                }
            }
        }
        for p in &mut self.players {
            for s in &mut p.boards {
                p.bag += s.food;
                s.food = 0;
            }
        }
    }

    /// After a turn the first player moves to the end.
    pub fn rotate(&mut self) {
        if !self.players.is_empty() {
            self.players.rotate_left(1);
        }
    }

    /// The reference's score: bag + boards + traits (§3.11).
    pub fn score_reference(p: &Player) -> u32 {
        p.bag + p.boards.len() as u32 + p.boards.iter().map(|s| s.traits.len() as u32).sum::<u32>()
    }

    /// The published game's score: bag + total population + traits.
    pub fn score_rules(p: &Player) -> u32 {
        p.bag
            + p.boards
                .iter()
                .map(|s| s.population + s.traits.len() as u32)
                .sum::<u32>()
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
