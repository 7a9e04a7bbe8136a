//! protocheck's built-in players for the seats the bot does not take:
//! big money (the `greedy` strategy) and random legal (`random`).

use super::messages::{Card, Play};
use super::rules::DominionTable;

/// How a built-in seat chooses its plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltInPlayer {
    /// Adds every treasure, then buys province at 8, gold at 6, silver at
    /// 3, and mines its cheapest treasure up when it holds a mine.
    BigMoney,
    /// A uniformly random legal play.
    RandomLegal,
}

impl BuiltInPlayer {
    pub fn word(self) -> &'static str {
        match self {
            BuiltInPlayer::BigMoney => "big money",
            BuiltInPlayer::RandomLegal => "random legal",
        }
    }

    /// The current seat's next play (always legal: a clean is always
    /// possible before the end).
    pub fn choose(self, game: &DominionTable, rng: &mut fastrand::Rng) -> Play {
        match self {
            BuiltInPlayer::BigMoney => big_money(game),
            BuiltInPlayer::RandomLegal => {
                let n = game.legal_count();
                game.nth_legal(rng.usize(..n))
                    .unwrap_or(Play::Clean(game.hand().first().copied()))
            }
        }
    }
}

fn big_money(game: &DominionTable) -> Play {
    let hand = game.hand();
    let ok = |p: Play| game.check(p).is_ok();
    let upgrades = [
        (Card::Silver, Card::Gold),
        (Card::Copper, Card::Silver),
        (Card::Gold, Card::Gold),
    ];
    if let Some(&(trash, gain)) = upgrades
        .iter()
        .find(|&&(trash, gain)| ok(Play::Mine { trash, gain }))
    {
        return Play::Mine { trash, gain };
    }
    for t in [Card::Gold, Card::Silver, Card::Copper] {
        if ok(Play::Add(t)) {
            return Play::Add(t);
        }
    }
    for (card, at) in [(Card::Province, 8), (Card::Gold, 6), (Card::Silver, 3)] {
        if game.coins >= at && ok(Play::Buy(card)) {
            return Play::Buy(card);
        }
    }
    Play::Clean(hand.first().copied())
}
