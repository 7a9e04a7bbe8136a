//! The sample player's choices: a money strategy (one mine, then silver,
//! gold, provinces, duchies late), every play checked with protocheck's rule
//! engine, and the one deviation of each [`Flaw`].

use super::Flaw;
use protocheck::games::dominion_sexp::messages::{Card, Play, State};
use protocheck::games::dominion_sexp::rules::DominionTable;

pub struct Player {
    flaw: Flaw,
    rng: fastrand::Rng,
    /// Inside our own turn (a `(move …)` came and no clean was written yet).
    in_turn: bool,
    /// The hand of the turn's first `(move …)` ([`Flaw::StaleClean`]).
    turn_start_hand: Vec<Card>,
    /// `(move …)`s already answered by an earlier write
    /// ([`Flaw::AllAddsAtOnce`]).
    answered_ahead: usize,
    cleaned: bool,
    /// The extra copper of [`Flaw::ExtraAdd`] was written this turn.
    extra_added: bool,
    /// Estates and duchies in the first state's supply
    /// ([`Flaw::LateBlunder`]).
    first_small_victories: Option<usize>,
}

fn count(cards: &[Card], card: Card) -> usize {
    cards.iter().filter(|&&c| c == card).count()
}

fn first_treasure(hand: &[Card]) -> Option<Card> {
    hand.iter().copied().find(|c| c.is_treasure())
}

fn cheapest_treasure(hand: &[Card]) -> Option<Card> {
    hand.iter()
        .copied()
        .filter(|c| c.is_treasure())
        .min_by_key(|c| c.cost())
}

impl Player {
    pub fn new(flaw: Flaw, seed: u64) -> Player {
        Player {
            flaw,
            rng: fastrand::Rng::with_seed(seed),
            in_turn: false,
            turn_start_hand: Vec::new(),
            answered_ahead: 0,
            cleaned: false,
            extra_added: false,
            first_small_victories: None,
        }
    }

    pub fn flaw(&self) -> Flaw {
        self.flaw
    }

    pub fn cleaned_once(&self) -> bool {
        self.cleaned
    }

    /// The plays to write for one `(move state)` (none when an earlier write
    /// already answered it).
    pub fn on_move(&mut self, state: &State) -> Vec<String> {
        if self.answered_ahead > 0 {
            self.answered_ahead -= 1;
            return Vec::new();
        }
        if !self.in_turn {
            self.in_turn = true;
            self.turn_start_hand = state.hand.clone();
            self.extra_added = false;
        }
        let small_victories =
            count(&state.supply, Card::Estate) + count(&state.supply, Card::Duchy);
        let first = *self.first_small_victories.get_or_insert(small_victories);
        if self.flaw == Flaw::LateBlunder
            && small_victories < first
            && state.coins < Card::Province.cost()
            && state.buys > 0
        {
            return vec![self.text(Play::Buy(Card::Province))];
        }
        let game = DominionTable::from_state(state);
        if self.flaw == Flaw::AllAddsAtOnce && state.buys > 0 {
            let treasures: Vec<Card> = state
                .hand
                .iter()
                .copied()
                .filter(|c| c.is_treasure())
                .collect();
            if treasures.len() > 1 && self.action(state, &game).is_none() {
                self.answered_ahead = treasures.len() - 1;
                return treasures.iter().map(|&t| self.text(Play::Add(t))).collect();
            }
        }
        let play = self.choose(state, &game);
        if let Play::Clean(_) = play {
            self.in_turn = false;
            self.cleaned = true;
            if self.flaw == Flaw::ShowHand && state.hand.len() > 1 {
                let names: Vec<&str> = state.hand.iter().map(|c| c.name()).collect();
                return vec![format!("(clean {})", names.join(" "))];
            }
        }
        vec![self.text(play)]
    }

    /// The play as written, in the flaw's spelling.
    fn text(&self, play: Play) -> String {
        let canonical = play.to_string();
        match self.flaw {
            Flaw::Capitalised => {
                let mut chars: Vec<char> = canonical.chars().collect();
                chars[1] = chars[1].to_ascii_uppercase();
                chars.into_iter().collect()
            }
            Flaw::QuotedString => format!("{canonical:?}"),
            Flaw::ActTreasures => canonical.replacen("(add ", "(act ", 1),
            Flaw::HashComment => format!("# thinking\n{canonical}"),
            Flaw::Brackets => format!("[{}]", &canonical[1..canonical.len() - 1]),
            _ => canonical,
        }
    }

    fn legal(game: &DominionTable, play: Play) -> bool {
        game.check(play).is_ok()
    }

    /// The whole decision for one `(move state)`.
    fn choose(&mut self, s: &State, game: &DominionTable) -> Play {
        let flaw = self.flaw;
        // Flaws that replace a step of the turn with something illegal.
        match flaw {
            Flaw::MineToGold if s.actions > 0 && s.hand.contains(&Card::Mine) => {
                let gain = [Card::Gold, Card::Silver, Card::Copper]
                    .into_iter()
                    .find(|&c| s.supply.contains(&c));
                if let (Some(trash), Some(gain)) = (cheapest_treasure(&s.hand), gain) {
                    return Play::Mine { trash, gain };
                }
            }
            Flaw::MineAfterAdd if s.hand.contains(&Card::Mine) => {
                let added = s.plays.iter().any(|c| c.is_treasure());
                match first_treasure(&s.hand) {
                    Some(t) if !added && s.actions > 0 && s.buys > 0 => return Play::Add(t),
                    _ if added && s.supply.contains(&Card::Silver) => {
                        return Play::Mine {
                            trash: first_treasure(&s.hand).unwrap_or(Card::Copper),
                            gain: Card::Silver,
                        };
                    }
                    _ => {}
                }
            }
            Flaw::MineFromSupply
                if s.actions > 0
                    && s.supply.contains(&Card::Mine)
                    && s.hand.contains(&Card::Copper)
                    && s.supply.contains(&Card::Silver) =>
            {
                return Play::Mine {
                    trash: Card::Copper,
                    gain: Card::Silver,
                };
            }
            Flaw::MineUnchecked
                if s.actions > 0
                    && s.hand.contains(&Card::Mine)
                    && s.supply.contains(&Card::Gold) =>
            {
                return Play::Mine {
                    trash: Card::Silver,
                    gain: Card::Gold,
                };
            }
            Flaw::MineAnyCard
                if s.actions > 0
                    && s.hand.contains(&Card::Mine)
                    && s.hand.contains(&Card::Estate)
                    && s.supply.contains(&Card::Silver) =>
            {
                return Play::Mine {
                    trash: Card::Estate,
                    gain: Card::Silver,
                };
            }
            _ => {}
        }
        if let Some(p) = self.action(s, game) {
            return p;
        }
        // Treasures, then the buy.
        match flaw {
            Flaw::UnplayedCoins => {
                if s.buys > 0 {
                    let worth: u32 = s.coins + s.hand.iter().map(|c| c.value()).sum::<u32>();
                    let owned = self.mines_owned(s);
                    if let Some(c) = self
                        .wanted(s, worth, owned)
                        .into_iter()
                        .find(|&c| s.supply.contains(&c))
                    {
                        return Play::Buy(c);
                    }
                }
                return self.clean(s);
            }
            Flaw::AddAfterBuy => {
                let want = self.best_buy(s, game).filter(|c| c.cost() >= 3);
                if let (true, Some(c)) = (s.buys > 0, want) {
                    return Play::Buy(c);
                }
                if let Some(t) = first_treasure(&s.hand) {
                    return Play::Add(t);
                }
            }
            _ => {}
        }
        if s.buys > 0
            && let Some(t) = first_treasure(&s.hand)
        {
            return Play::Add(t);
        }
        if flaw == Flaw::ExtraAdd && s.buys > 0 {
            // One past the end: as many adds as coppers added, plus one.
            if count(&s.plays, Card::Copper) > 0 && !self.extra_added {
                self.extra_added = true;
                return Play::Add(Card::Copper);
            }
        }
        if s.buys > 0
            && let Some(c) = self.best_buy(s, game)
        {
            return Play::Buy(match (flaw, c) {
                (Flaw::V2Buys, Card::Silver) => Card::Village,
                _ => c,
            });
        }
        if flaw == Flaw::SecondBuy && s.buys == 0 {
            return Play::Buy(Card::Copper);
        }
        self.clean(s)
    }

    /// Mine: silver → gold, else copper → silver (legal by the engine).
    fn action(&self, s: &State, game: &DominionTable) -> Option<Play> {
        if s.actions == 0 || !s.hand.contains(&Card::Mine) {
            return None;
        }
        [(Card::Silver, Card::Gold), (Card::Copper, Card::Silver)]
            .into_iter()
            .map(|(trash, gain)| Play::Mine { trash, gain })
            .find(|&p| Self::legal(game, p))
    }

    fn mines_owned(&self, s: &State) -> usize {
        [&s.deck, &s.hand, &s.plays, &s.discards]
            .iter()
            .map(|cards| count(cards, Card::Mine))
            .sum()
    }

    /// What the strategy would like with `coins`, best first (not yet
    /// checked against the supply).
    fn wanted(&mut self, s: &State, coins: u32, mines_owned: usize) -> Vec<Card> {
        let provinces = count(&s.supply, Card::Province);
        let mut wants = Vec::new();
        if coins >= 8 {
            wants.push(Card::Province);
        }
        if coins >= 5 && provinces <= 2 {
            wants.push(Card::Duchy);
        }
        if coins >= 6 {
            wants.push(Card::Gold);
        }
        if coins >= 5 {
            if provinces <= 4 {
                wants.push(Card::Duchy);
            }
            if mines_owned == 0 {
                wants.push(Card::Mine);
            }
        }
        if coins >= 2 && provinces <= 2 {
            wants.push(Card::Estate);
        }
        if coins >= 3 {
            wants.push(Card::Silver);
        }
        // Now and then a copper when nothing better is affordable (the
        // seeded choice; copper costs 0).
        if coins <= 2 && self.rng.u8(..4) == 0 {
            wants.push(Card::Copper);
        }
        wants
    }

    /// The first wanted card that is legal to buy now.
    fn best_buy(&mut self, s: &State, game: &DominionTable) -> Option<Card> {
        let owned = self.mines_owned(s);
        self.wanted(s, s.coins, owned)
            .into_iter()
            .find(|&c| Self::legal(game, Play::Buy(c)))
    }

    /// `(clean)` with an empty hand, else `(clean card)` with a card of the
    /// hand picked by the seed (or the flaw's choice).
    fn clean(&mut self, s: &State) -> Play {
        match self.flaw {
            Flaw::BareClean => return Play::Clean(None),
            Flaw::StaleClean => return Play::Clean(self.turn_start_hand.first().copied()),
            _ => {}
        }
        if s.hand.is_empty() {
            return Play::Clean(None);
        }
        Play::Clean(Some(s.hand[self.rng.usize(..s.hand.len())]))
    }
}
