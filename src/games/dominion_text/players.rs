//! protocheck's built-in players for the seats the bot does not take, over
//! the shared rule engine ([`crate::games::dominion::kingdom`]). Between
//! them they buy and play every kingdom card; every play they make is legal
//! (checked with the engine before it is chosen). Choices that need chance
//! take the controller's seeded random numbers, so a game replays from its
//! seed; their answers to militia are deterministic.

use crate::games::dominion::Card;
use crate::games::dominion::kingdom::DominionTable;

/// How a built-in seat plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltInPlayer {
    /// Buys militia early and often, and plays it at once: the bot meets
    /// attack requests in most rounds.
    Militia,
    /// Buys a spread of every kingdom card (villages, smithies, markets,
    /// cellars, mines, remodels, workshops, woodcutters, moats).
    Engine,
    /// Big money (the `greedy` strategy): treasures and provinces, but it
    /// still plays any action card it holds.
    BigMoney,
    /// A random legal action or buy (the `random` strategy).
    Random,
}

/// One play of a built-in seat on its turn, in the bot's reply language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnPlay {
    Action(Card, Vec<Card>),
    Buy(Vec<Card>),
    Pass,
}

impl std::fmt::Display for TurnPlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |cards: &[Card]| cards.iter().map(|c| format!(" {c}")).collect::<String>();
        match self {
            TurnPlay::Action(card, args) => write!(f, "action {card}{}", list(args)),
            TurnPlay::Buy(cards) => write!(f, "buy{}", list(cards)),
            TurnPlay::Pass => f.write_str("pass"),
        }
    }
}

/// What an attacked built-in seat answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttackAnswer {
    RevealMoat,
    Discard(Vec<Card>),
}

/// Actions in the order a built-in seat plays them: the ones that give
/// actions first, then draws and attacks, then gains.
const ACTION_ORDER: [Card; 10] = [
    Card::Village,
    Card::Market,
    Card::Cellar,
    Card::Militia,
    Card::Smithy,
    Card::Moat,
    Card::Woodcutter,
    Card::Workshop,
    Card::Mine,
    Card::Remodel,
];

impl BuiltInPlayer {
    pub fn word(self) -> &'static str {
        match self {
            BuiltInPlayer::Militia => "militia",
            BuiltInPlayer::Engine => "engine",
            BuiltInPlayer::BigMoney => "big money",
            BuiltInPlayer::Random => "random legal",
        }
    }

    /// What to buy, best first, with the most copies worth owning.
    fn wishes(self) -> &'static [(Card, usize)] {
        match self {
            BuiltInPlayer::Militia => &[
                (Card::Province, usize::MAX),
                (Card::Gold, usize::MAX),
                (Card::Militia, 3),
                (Card::Market, 2),
                (Card::Moat, 1),
                (Card::Silver, usize::MAX),
            ],
            BuiltInPlayer::Engine => &[
                (Card::Province, usize::MAX),
                (Card::Gold, 3),
                (Card::Market, 2),
                (Card::Mine, 1),
                (Card::Militia, 1),
                (Card::Smithy, 2),
                (Card::Remodel, 1),
                (Card::Village, 2),
                (Card::Workshop, 1),
                (Card::Woodcutter, 1),
                (Card::Gold, usize::MAX),
                (Card::Silver, 4),
                (Card::Cellar, 1),
                (Card::Moat, 1),
                (Card::Silver, usize::MAX),
            ],
            BuiltInPlayer::BigMoney | BuiltInPlayer::Random => &[
                (Card::Province, usize::MAX),
                (Card::Gold, usize::MAX),
                (Card::Silver, usize::MAX),
            ],
        }
    }

    /// The current seat's next play; always legal in `game`.
    pub fn choose(self, game: &DominionTable, rng: &mut fastrand::Rng) -> TurnPlay {
        if game.actions > 0 {
            let mut playable = ACTION_ORDER
                .into_iter()
                .filter(|c| game.hand().contains(c))
                .filter_map(|c| {
                    let args = self.arguments(game, c)?;
                    (game.check_action(c, &args) == Ok(None)).then_some((c, args))
                });
            let pick = if self == BuiltInPlayer::Random {
                let all: Vec<(Card, Vec<Card>)> = playable.collect();
                (!all.is_empty() && rng.bool()).then(|| all[rng.usize(..all.len())].clone())
            } else {
                // The first in order: later ones are not even worked out.
                playable.next()
            };
            if let Some((card, args)) = pick {
                return TurnPlay::Action(card, args);
            }
        }
        let cards = if self == BuiltInPlayer::Random {
            random_buys(game, rng)
        } else {
            self.buys(game)
        };
        if cards.is_empty() {
            TurnPlay::Pass
        } else {
            TurnPlay::Buy(cards)
        }
    }

    /// The best card to gain costing at most `limit` (workshop, remodel).
    fn best_gain(self, game: &DominionTable, limit: u32, owned: &[usize; 17]) -> Option<Card> {
        self.wishes()
            .iter()
            .chain(&[(Card::Silver, usize::MAX), (Card::Estate, usize::MAX)])
            .find(|(c, most)| {
                c.cost() <= limit && game.supply.count(*c) > 0 && owned[c.supply_index()] < *most
            })
            .map(|(c, _)| *c)
            .or_else(|| {
                Card::SUPPLY
                    .into_iter()
                    .filter(|c| c.cost() <= limit && game.supply.count(*c) > 0)
                    .max_by_key(|c| c.cost())
            })
    }

    /// The arguments this seat gives `card`, if it plays it now.
    fn arguments(self, game: &DominionTable, card: Card) -> Option<Vec<Card>> {
        let mut rest = game.hand().to_vec();
        if let Some(i) = rest.iter().position(|&c| c == card) {
            rest.remove(i);
        }
        match card {
            Card::Cellar => Some(
                rest.iter()
                    .copied()
                    .filter(|c| c.is_victory() || c.is_curse())
                    .collect(),
            ),
            Card::Mine => {
                let upgrades = [
                    (Card::Silver, Card::Gold),
                    (Card::Copper, Card::Silver),
                    (Card::Gold, Card::Gold),
                    (Card::Silver, Card::Silver),
                    (Card::Copper, Card::Copper),
                ];
                if !rest.iter().any(|c| c.is_treasure()) {
                    return Some(Vec::new());
                }
                upgrades
                    .into_iter()
                    .find(|(t, g)| rest.contains(t) && game.supply.count(*g) > 0)
                    .map(|(t, g)| vec![t, g])
            }
            Card::Remodel => {
                if rest.is_empty() {
                    return Some(Vec::new());
                }
                let trash = [
                    Card::Gold,
                    Card::Curse,
                    Card::Estate,
                    Card::Copper,
                    Card::Remodel,
                ]
                .into_iter()
                .find(|c| rest.contains(c))
                .unwrap_or(rest[0]);
                let limit = trash.cost() + 2;
                let gain = if trash == Card::Gold && game.supply.count(Card::Province) > 0 {
                    Some(Card::Province)
                } else {
                    self.best_gain(game, limit, &owned(game))
                };
                Some(match gain {
                    Some(g) => vec![trash, g],
                    None => vec![trash],
                })
            }
            Card::Workshop => Some(self.best_gain(game, 4, &owned(game)).into_iter().collect()),
            _ => Some(Vec::new()),
        }
    }

    /// Buys left to right from the wish list, within money and buys.
    fn buys(self, game: &DominionTable) -> Vec<Card> {
        let mut money = money(game);
        let mut owned = owned(game);
        let mut supply: Vec<u32> = Card::SUPPLY
            .into_iter()
            .map(|c| game.supply.count(c))
            .collect();
        let mut out = Vec::new();
        for _ in 0..game.buys {
            let Some(&(card, _)) = self.wishes().iter().find(|(c, most)| {
                c.cost() <= money && supply[c.supply_index()] > 0 && owned[c.supply_index()] < *most
            }) else {
                break;
            };
            money -= card.cost();
            owned[card.supply_index()] += 1;
            supply[card.supply_index()] -= 1;
            out.push(card);
        }
        out
    }

    /// The answer of an attacked built-in seat that must discard `n`:
    /// moat if it holds one, else its least useful cards.
    pub fn answer_attack(hand: &[Card], n: usize) -> AttackAnswer {
        if hand.contains(&Card::Moat) {
            return AttackAnswer::RevealMoat;
        }
        let mut sorted = hand.to_vec();
        sorted.sort_by_key(|c| {
            let useless = c.is_victory() || c.is_curse();
            (!useless, c.value(), c.cost())
        });
        sorted.truncate(n);
        AttackAnswer::Discard(sorted)
    }
}

/// Treasures in hand plus extra-money.
fn money(game: &DominionTable) -> u32 {
    game.coins + game.hand().iter().map(|c| c.value()).sum::<u32>()
}

/// Copies the current seat owns, the play area included.
fn owned(game: &DominionTable) -> [usize; 17] {
    let mut counts = [0; 17];
    let owned = game.players[game.current]
        .owned()
        .chain(game.play_area.iter().copied());
    for c in owned {
        counts[c.supply_index()] += 1;
    }
    counts
}

/// Random affordable cards, one per buy, stopping at random.
fn random_buys(game: &DominionTable, rng: &mut fastrand::Rng) -> Vec<Card> {
    let mut money = money(game);
    let mut supply: Vec<u32> = Card::SUPPLY
        .into_iter()
        .map(|c| game.supply.count(c))
        .collect();
    let mut out = Vec::new();
    for _ in 0..game.buys {
        let affordable: Vec<Card> = Card::SUPPLY
            .into_iter()
            .filter(|c| c.cost() <= money && supply[c.supply_index()] > 0)
            .collect();
        if affordable.is_empty() || rng.u8(..4) == 0 {
            break;
        }
        // Mostly the dearest affordable card, so random games still end.
        let card = if rng.bool() {
            affordable[rng.usize(..affordable.len())]
        } else {
            *affordable
                .iter()
                .max_by_key(|c| c.cost())
                .unwrap_or(&Card::Copper)
        };
        money -= card.cost();
        supply[card.supply_index()] -= 1;
        out.push(card);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Whole 4-player games between the built-in players: every play legal,
    /// every game ends, and between them they play every kingdom card and
    /// attack with militia.
    #[test]
    fn built_in_players_play_whole_legal_games_with_every_kingdom_card() {
        let mut played = BTreeSet::new();
        let mut attacks = 0;
        for seed in 0..40u64 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut shuffler = fastrand::Rng::with_seed(seed ^ 1);
            let mut game = DominionTable::line(4, &mut shuffler);
            let seats = [
                BuiltInPlayer::Militia,
                BuiltInPlayer::Engine,
                BuiltInPlayer::Militia,
                BuiltInPlayer::Engine,
            ];
            while game.ended.is_none() {
                let player = seats[game.current];
                match player.choose(&game, &mut rng) {
                    TurnPlay::Action(card, args) => {
                        assert_eq!(game.check_action(card, &args), Ok(None), "{card} {args:?}");
                        let out = game.play_action(card, &args, &mut shuffler);
                        played.insert(card);
                        if out.attack {
                            for q in game.attack_order().collect::<Vec<_>>() {
                                if let Some(n) = game.attack_discard_count(q) {
                                    attacks += 1;
                                    let answer =
                                        BuiltInPlayer::answer_attack(&game.players[q].hand, n);
                                    let reply = match &answer {
                                        AttackAnswer::RevealMoat => {
                                            crate::games::dominion::kingdom::AttackReply::RevealMoat
                                        }
                                        AttackAnswer::Discard(c) => {
                                            crate::games::dominion::kingdom::AttackReply::Discard(c)
                                        }
                                    };
                                    let o = game.resolve_attack(q, Some(reply), &mut shuffler);
                                    assert_eq!(o.rule, None);
                                }
                            }
                        }
                    }
                    TurnPlay::Buy(cards) => {
                        let out = game.buy(&cards);
                        assert_eq!(out.rule, None, "{cards:?}");
                        game.end_turn(&mut shuffler);
                    }
                    TurnPlay::Pass => {
                        game.end_turn(&mut shuffler);
                    }
                }
            }
        }
        assert_eq!(played, Card::KINGDOM.into_iter().collect::<BTreeSet<_>>());
        assert!(attacks > 100, "{attacks} attacks");
    }
}
