//! Whole games of random legal play: never a panic, never a card created or
//! lost, always an end.

use super::*;
use proptest::prelude::*;

/// Legal arguments for `card`, chosen at random (§3.5).
fn legal_args(game: &DominionTable, card: Card, rng: &mut fastrand::Rng) -> Vec<Card> {
    let mut rest = game.hand().to_vec();
    if let Some(i) = rest.iter().position(|&c| c == card) {
        rest.remove(i);
    }
    let available = |fits: &dyn Fn(Card) -> bool| -> Vec<Card> {
        Card::SUPPLY
            .into_iter()
            .filter(|&c| game.supply.count(c) > 0 && fits(c))
            .collect()
    };
    match card {
        Card::Cellar => {
            rng.shuffle(&mut rest);
            rest.truncate(rng.usize(0..=rest.len()));
            rest
        }
        Card::Mine => {
            let treasures: Vec<_> = rest.iter().copied().filter(|c| c.is_treasure()).collect();
            let Some(&trash) =
                (!treasures.is_empty()).then(|| &treasures[rng.usize(..treasures.len())])
            else {
                return Vec::new();
            };
            let gains = available(&|c| c.is_treasure() && c.cost() <= trash.cost() + 3);
            match gains.is_empty() {
                true => vec![trash],
                false => vec![trash, gains[rng.usize(..gains.len())]],
            }
        }
        Card::Remodel => {
            if rest.is_empty() {
                return Vec::new();
            }
            let trash = rest[rng.usize(..rest.len())];
            let gains = available(&|c| c.cost() <= trash.cost() + 2);
            match gains.is_empty() {
                true => vec![trash],
                false => vec![trash, gains[rng.usize(..gains.len())]],
            }
        }
        Card::Workshop => {
            let gains = available(&|c| c.cost() <= 4);
            gains
                .get(rng.usize(..gains.len().max(1)))
                .copied()
                .into_iter()
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Plays one whole turn of random legal moves (an occasional malformed
/// attack reply exercises the random discard).
fn play_turn(game: &mut DominionTable, rng: &mut fastrand::Rng) -> TurnEnd {
    let before = total_cards(game);
    while game.actions > 0 && rng.u8(0..4) > 0 {
        let actions: Vec<_> = game
            .hand()
            .iter()
            .copied()
            .filter(|c| c.is_action())
            .collect();
        let Some(&card) = actions.get(rng.usize(..actions.len().max(1))) else {
            break;
        };
        let args = legal_args(game, card, rng);
        assert_eq!(game.check_action(card, &args), Ok(None), "{card} {args:?}");
        let out = game.play_action(card, &args, rng);
        assert_eq!(out.rule, None);
        if out.attack {
            for seat in game.attack_order().collect::<Vec<_>>() {
                let Some(n) = game.attack_discard_count(seat) else {
                    continue;
                };
                let mut discard = game.players[seat].hand.clone();
                rng.shuffle(&mut discard);
                discard.truncate(n);
                let reply = match rng.u8(0..10) {
                    0 => None,
                    1..=4 if game.players[seat].hand.contains(&Card::Moat) => {
                        Some(AttackReply::RevealMoat)
                    }
                    _ => Some(AttackReply::Discard(&discard)),
                };
                let out = game.resolve_attack(seat, reply, rng);
                assert_eq!(out.rule, None);
                assert!(game.players[seat].hand.len() <= 3 || out.revealed_moat);
            }
        }
        assert_eq!(total_cards(game), before);
    }
    if rng.u8(0..8) > 0 {
        let mut money = game.coins + game.hand().iter().map(|c| c.value()).sum::<u32>();
        let mut list = Vec::new();
        for _ in 0..game.buys {
            let affordable: Vec<_> = Card::SUPPLY
                .into_iter()
                .filter(|&c| {
                    c.cost() <= money
                        && game.supply.count(c) > list.iter().filter(|&&b| b == c).count() as u32
                })
                .collect();
            // Rich players prefer the dear cards, so games do end.
            let Some(&card) = affordable
                .iter()
                .max_by_key(|c| (c.cost() + rng.u32(0..4), rng.u8(..)))
            else {
                break;
            };
            money -= card.cost();
            list.push(card);
        }
        let out = game.buy(&list);
        assert_eq!(out.rule, (list.is_empty()).then_some(Rule::BuyEmpty));
        assert_eq!(out.bought, list);
    }
    let end = game.end_turn(rng);
    assert_eq!(total_cards(game), before);
    end
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_legal_games_conserve_cards_and_end(seed: u64, players in MIN_PLAYERS..=MAX_PLAYERS) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut game = DominionTable::line(players, &mut rng);
        let total = total_cards(&game);
        let mut turns = 0;
        while game.ended.is_none() {
            let end = play_turn(&mut game, &mut rng);
            turns += 1;
            prop_assert!(turns <= players as u32 * DEFAULT_TURN_CAP);
            prop_assert_eq!(total_cards(&game), total);
            prop_assert!(game.players[end.seat].hand.len() <= 5);
        }
        let winners = game.winners();
        prop_assert!(!winners.is_empty());
        let best = game.scores()[winners[0]];
        prop_assert!(game.scores().iter().all(|&s| s <= best));
    }
}
