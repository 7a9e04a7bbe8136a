use super::*;
use Card::*;

/// Keeps the order: the deck's top stays last, a reshuffled discard pile is
/// drawn from its top down, militia's random pick takes the hand's first.
pub(super) struct NoShuffle;
impl Shuffler for NoShuffle {
    fn shuffle(&mut self, _: &mut [Card]) {}
}

/// Reverses: makes reshuffles visible in tests.
struct Reverse;
impl Shuffler for Reverse {
    fn shuffle(&mut self, cards: &mut [Card]) {
        cards.reverse();
    }
}

/// A game of `players` whose current player holds `hand`, with `deck` (top
/// last) and an empty discard pile.
pub(super) fn game_with(players: usize, hand: &[Card], deck: &[Card]) -> DominionTable {
    let mut game = DominionTable::line(players, &mut NoShuffle);
    let p = &mut game.players[0];
    p.hand = hand.to_vec();
    p.deck = deck.to_vec();
    p.discard.clear();
    game
}

pub(super) fn total_cards(game: &DominionTable) -> u32 {
    game.supply.counts().iter().sum::<u32>()
        + game
            .players
            .iter()
            .map(|p| p.owned().count() as u32)
            .sum::<u32>()
        + game.play_area.len() as u32
        + game.trash.len() as u32
}

#[test]
fn supply_per_player_count_follows_section_3_2() {
    let row = |n| {
        let s = Supply::for_players(n);
        [
            Curse, Copper, Silver, Gold, Estate, Duchy, Province, Cellar, Workshop,
        ]
        .map(|c| s.count(c))
    };
    assert_eq!(row(2), [10, 46, 40, 30, 8, 8, 8, 10, 10]);
    assert_eq!(row(3), [20, 39, 40, 30, 12, 12, 12, 10, 10]);
    assert_eq!(row(4), [30, 32, 40, 30, 12, 12, 12, 10, 10]);
    for c in Card::KINGDOM {
        assert_eq!(Supply::for_players(3).count(c), 10);
    }
}

#[test]
fn every_player_starts_with_seven_coppers_three_estates_and_draws_five() {
    for n in MIN_PLAYERS..=MAX_PLAYERS {
        let game = DominionTable::line(n, &mut fastrand::Rng::with_seed(n as u64));
        assert_eq!(game.players.len(), n);
        for p in &game.players {
            assert_eq!(p.hand.len(), 5);
            assert_eq!(p.deck.len(), 5);
            let owned: Vec<_> = p.owned().collect();
            assert_eq!(owned.iter().filter(|&&c| c == Copper).count(), 7);
            assert_eq!(owned.iter().filter(|&&c| c == Estate).count(), 3);
            assert_eq!(p.score(), 3);
        }
        assert_eq!(
            (game.current, game.actions, game.buys, game.coins),
            (0, 1, 1, 0)
        );
    }
}

#[test]
fn same_seed_same_game() {
    let a = DominionTable::line(4, &mut fastrand::Rng::with_seed(7));
    let b = DominionTable::line(4, &mut fastrand::Rng::with_seed(7));
    assert_eq!(a, b);
}

#[test]
fn a_draw_reshuffles_the_discard_pile_in_the_middle() {
    let mut game = game_with(2, &[Smithy], &[Gold]);
    game.players[0].discard = vec![Estate, Silver];
    let out = game.play_action(Smithy, &[], &mut Reverse);
    assert_eq!(out, ActionOutcome::default());
    // Gold from the deck, then the reversed discard pile [Silver, Estate]
    // drawn from its top (the last): Estate, then Silver.
    assert_eq!(game.hand(), [Gold, Estate, Silver]);
    assert!(game.players[0].discard.is_empty());
    assert_eq!(game.play_area, [Smithy]);
}

#[test]
fn a_draw_stops_when_deck_and_discard_pile_are_empty() {
    let mut game = game_with(2, &[Smithy], &[Gold]);
    game.play_action(Smithy, &[], &mut NoShuffle);
    assert_eq!(game.hand(), [Gold]);
}

#[test]
fn the_played_card_is_never_reshuffled() {
    let mut game = game_with(2, &[Moat], &[]);
    game.play_action(Moat, &[], &mut NoShuffle);
    assert_eq!(game.hand(), []);
    assert_eq!(game.play_area, [Moat]);
}

#[test]
fn simple_actions_have_their_section_3_1_effects() {
    let deck = [Copper, Copper, Silver, Gold];
    // (card, hand after, actions, buys, extra money)
    let cases = [
        (Market, vec![Estate, Gold], 1, 2, 1),
        (Smithy, vec![Estate, Gold, Silver, Copper], 0, 1, 0),
        (Village, vec![Estate, Gold], 2, 1, 0),
        (Woodcutter, vec![Estate], 0, 2, 2),
        (Moat, vec![Estate, Gold, Silver], 0, 1, 0),
        (Militia, vec![Estate], 0, 1, 2),
    ];
    for (card, hand, actions, buys, money) in cases {
        let mut game = game_with(2, &[card, Estate], &deck);
        let out = game.play_action(card, &[], &mut NoShuffle);
        assert_eq!(out.rule, None, "{card}");
        assert_eq!(out.attack, card == Militia, "{card}");
        assert_eq!(game.hand(), hand, "{card}");
        assert_eq!(
            (game.actions, game.buys, game.coins),
            (actions, buys, money),
            "{card}"
        );
        assert_eq!(game.play_area, [card]);
    }
}

#[test]
fn an_action_without_actions_ends_the_turn_and_changes_nothing() {
    let mut game = game_with(2, &[Village, Smithy], &[]);
    game.actions = 0;
    let before = game.clone();
    let out = game.play_action(Village, &[], &mut NoShuffle);
    assert_eq!(
        out.rule.map(Rule::id),
        Some("dominion-text.action.no-actions")
    );
    assert!(out.ends_turn);
    assert_eq!(game, before);
}

#[test]
fn a_card_not_an_action_or_not_in_hand_costs_one_action_and_nothing_else() {
    for (card, id) in [
        (Copper, "dominion-text.action.not-action-card"),
        (Curse, "dominion-text.action.not-action-card"),
        (Market, "dominion-text.action.not-in-hand"),
    ] {
        let mut game = game_with(2, &[Copper, Village], &[Gold]);
        game.actions = 2;
        let out = game.play_action(card, &[], &mut NoShuffle);
        assert_eq!(out.rule.map(Rule::id), Some(id));
        assert!(!out.ends_turn);
        assert_eq!(game.actions, 1);
        assert_eq!(game.hand(), [Copper, Village]);
        assert!(game.play_area.is_empty());
    }
}

#[test]
fn cellar_discards_then_draws_so_a_reshuffle_includes_the_discards() {
    let mut game = game_with(2, &[Cellar, Estate, Estate, Copper], &[Gold]);
    let out = game.play_action(Cellar, &[Estate, Estate], &mut NoShuffle);
    assert_eq!(out.rule, None);
    assert_eq!(out.discarded, [Estate, Estate]);
    // Gold from the deck, then one estate back from the reshuffled discards.
    assert_eq!(game.hand(), [Copper, Gold, Estate]);
    assert_eq!(game.players[0].deck, [Estate]);
    assert!(game.players[0].discard.is_empty());
    assert_eq!(game.actions, 1);
}

#[test]
fn cellar_with_an_empty_list_is_legal_and_gives_an_action() {
    let mut game = game_with(2, &[Cellar, Estate], &[Gold]);
    let out = game.play_action(Cellar, &[], &mut NoShuffle);
    assert_eq!(out.rule, None);
    assert_eq!((game.hand(), game.actions), ([Estate].as_slice(), 1));
}

#[test]
fn cellar_discards_the_valid_prefix_with_a_warning() {
    // The second estate is not there (counted as a multiset); gold is never
    // reached.
    let mut game = game_with(2, &[Cellar, Estate, Copper], &[Silver, Silver]);
    let out = game.play_action(Cellar, &[Estate, Estate, Copper], &mut NoShuffle);
    assert_eq!(
        out.rule.map(Rule::id),
        Some("dominion-text.cellar.card-not-in-hand")
    );
    assert!(out.rule.is_some_and(Rule::is_warning));
    assert_eq!(out.discarded, [Estate]);
    assert_eq!(game.hand(), [Copper, Silver]);
    assert_eq!(game.actions, 1);
}

#[test]
fn cellar_cannot_discard_itself_but_a_second_cellar_can_go() {
    let mut game = game_with(2, &[Cellar, Estate], &[]);
    let out = game.play_action(Cellar, &[Cellar], &mut NoShuffle);
    assert_eq!(
        out.rule.map(Rule::id),
        Some("dominion-text.cellar.no-valid-cards")
    );
    // Consumed, with no +1 action.
    assert_eq!((game.hand(), game.actions), ([Estate].as_slice(), 0));
    assert_eq!(game.play_area, [Cellar]);

    let mut game = game_with(2, &[Cellar, Cellar], &[Gold]);
    assert_eq!(
        game.play_action(Cellar, &[Cellar], &mut NoShuffle).rule,
        None
    );
    assert_eq!(game.hand(), [Gold]);
}

#[test]
fn mine_trashes_a_treasure_and_gains_one_into_the_hand() {
    for (trash, gain) in [
        (Silver, Gold),
        (Copper, Silver),
        (Gold, Gold),
        (Gold, Copper),
    ] {
        let mut game = game_with(2, &[Mine, trash, Estate], &[]);
        let gold_before = game.supply.count(gain);
        let out = game.play_action(Mine, &[trash, gain], &mut NoShuffle);
        assert_eq!(out.rule, None, "{trash}->{gain}");
        assert_eq!((out.trashed, out.gained), (Some(trash), Some(gain)));
        assert_eq!(game.hand(), [Estate, gain]);
        assert_eq!(game.trash, [trash]);
        assert_eq!(game.supply.count(gain), gold_before - 1);
        assert_eq!(game.gained, [gain]);
    }
}

fn action_rule(game: &DominionTable, card: Card, args: &[Card]) -> Option<&'static str> {
    match game.check_action(card, args) {
        Ok(w) => w.map(Rule::id),
        Err(r) => Some(r.id()),
    }
}

#[test]
fn mine_rules_in_the_documented_order() {
    let game = game_with(2, &[Mine, Copper, Estate], &[]);
    let cases: [(&[Card], Option<&str>); 7] = [
        (&[], Some("dominion-text.mine.missing-card")),
        (&[Estate, Silver], Some("dominion-text.mine.not-treasure")),
        (
            &[Silver, Gold],
            Some("dominion-text.mine.trash-not-in-hand"),
        ),
        (&[Copper], Some("dominion-text.mine.missing-gain")),
        (&[Copper, Village], Some("dominion-text.mine.not-treasure")),
        (&[Copper, Gold], Some("dominion-text.mine.too-expensive")),
        (&[Copper, Copper], None),
    ];
    for (args, id) in cases {
        assert_eq!(action_rule(&game, Mine, args), id, "{args:?}");
    }
    let mut empty_silver = game.clone();
    empty_silver.supply.set(Silver, 0);
    assert_eq!(
        action_rule(&empty_silver, Mine, &[Copper, Silver]),
        Some("dominion-text.mine.gain-unavailable")
    );
}

#[test]
fn mine_may_name_nothing_only_when_nothing_could_be_named() {
    let mut game = game_with(2, &[Mine, Estate], &[]);
    let out = game.play_action(Mine, &[], &mut NoShuffle);
    assert_eq!(out.rule, None);
    assert_eq!((game.hand(), game.trash.len()), ([Estate].as_slice(), 0));

    // A copper in hand but no treasure pile within reach: trash, gain nothing.
    let mut game = game_with(2, &[Mine, Copper], &[]);
    game.supply.set(Copper, 0);
    game.supply.set(Silver, 0);
    let out = game.play_action(Mine, &[Copper], &mut NoShuffle);
    assert_eq!(out.rule, None);
    assert_eq!((out.trashed, out.gained), (Some(Copper), None));
    assert!(game.hand().is_empty());
}

#[test]
fn a_failed_mine_is_consumed_and_trashes_nothing() {
    let mut game = game_with(2, &[Mine, Copper], &[]);
    let out = game.play_action(Mine, &[Copper], &mut NoShuffle);
    assert_eq!(
        out.rule.map(Rule::id),
        Some("dominion-text.mine.missing-gain")
    );
    assert_eq!(game.hand(), [Copper]);
    assert_eq!(game.play_area, [Mine]);
    assert!(game.trash.is_empty());
    assert_eq!(game.actions, 0);
}

#[test]
fn remodel_rules_and_effect() {
    let game = game_with(2, &[Remodel, Estate, Remodel], &[]);
    let cases: [(&[Card], Option<&str>); 6] = [
        (&[], Some("dominion-text.remodel.missing-card")),
        (
            &[Gold, Gold],
            Some("dominion-text.remodel.trash-not-in-hand"),
        ),
        (&[Estate], Some("dominion-text.remodel.missing-gain")),
        (
            &[Estate, Market],
            Some("dominion-text.remodel.too-expensive"),
        ),
        (&[Estate, Smithy], None),
        (&[Remodel, Gold], None),
    ];
    for (args, id) in cases {
        assert_eq!(action_rule(&game, Remodel, args), id, "{args:?}");
    }
    let mut no_smithy = game.clone();
    no_smithy.supply.set(Smithy, 0);
    assert_eq!(
        action_rule(&no_smithy, Remodel, &[Estate, Smithy]),
        Some("dominion-text.remodel.gain-unavailable")
    );
    // The played remodel has left the hand.
    let lone = game_with(2, &[Remodel, Estate], &[]);
    assert_eq!(
        action_rule(&lone, Remodel, &[Remodel, Gold]),
        Some("dominion-text.remodel.trash-not-in-hand")
    );

    let mut game = game;
    let out = game.play_action(Remodel, &[Estate, Curse], &mut NoShuffle);
    assert_eq!(out.rule, None);
    assert_eq!(game.hand(), [Remodel]);
    assert_eq!(game.trash, [Estate]);
    assert_eq!(game.players[0].discard, [Curse]);
    assert_eq!(game.supply.count(Curse), 9);
}

#[test]
fn remodel_with_an_empty_hand_or_nothing_gainable() {
    let mut game = game_with(2, &[Remodel], &[]);
    assert_eq!(game.play_action(Remodel, &[], &mut NoShuffle).rule, None);
    assert_eq!(game.play_area, [Remodel]);

    let mut game = game_with(2, &[Remodel, Copper], &[]);
    for c in Card::SUPPLY.into_iter().filter(|c| c.cost() <= 2) {
        game.supply.set(c, 0);
    }
    let out = game.play_action(Remodel, &[Copper], &mut NoShuffle);
    assert_eq!(
        (out.rule, out.trashed, out.gained),
        (None, Some(Copper), None)
    );
}

#[test]
fn workshop_rules_and_effect() {
    let game = game_with(2, &[Workshop], &[]);
    assert_eq!(
        action_rule(&game, Workshop, &[]),
        Some("dominion-text.workshop.missing-gain")
    );
    assert_eq!(
        action_rule(&game, Workshop, &[Gold]),
        Some("dominion-text.workshop.too-expensive")
    );
    let mut no_smithy = game.clone();
    no_smithy.supply.set(Smithy, 0);
    assert_eq!(
        action_rule(&no_smithy, Workshop, &[Smithy]),
        Some("dominion-text.workshop.gain-unavailable")
    );
    let mut game = game;
    let out = game.play_action(Workshop, &[Smithy], &mut NoShuffle);
    assert_eq!((out.rule, out.gained), (None, Some(Smithy)));
    assert_eq!(game.players[0].discard, [Smithy]);

    let mut bare = game_with(2, &[Workshop], &[]);
    for c in Card::SUPPLY.into_iter().filter(|c| c.cost() <= 4) {
        bare.supply.set(c, 0);
    }
    assert_eq!(bare.play_action(Workshop, &[], &mut NoShuffle).rule, None);
}

#[test]
fn a_consumed_workshop_gains_nothing() {
    let mut game = game_with(2, &[Workshop, Copper], &[]);
    let out = game.play_action(Workshop, &[Province], &mut NoShuffle);
    assert_eq!(
        out.rule.map(Rule::id),
        Some("dominion-text.workshop.too-expensive")
    );
    assert_eq!(
        (game.hand(), game.play_area.as_slice()),
        ([Copper].as_slice(), [Workshop].as_slice())
    );
    assert!(game.players[0].discard.is_empty() && game.gained.is_empty());
}

#[test]
fn rules_know_their_severity() {
    let warnings: Vec<_> = [
        Rule::CellarCardNotInHand,
        Rule::BuyEmpty,
        Rule::BuyMoreThanBuys,
        Rule::BuyUnaffordable,
        Rule::BuyPileEmpty,
    ]
    .map(Rule::is_warning)
    .to_vec();
    assert!(warnings.iter().all(|&w| w));
    assert!(!Rule::ActionNoActions.is_warning() && !Rule::AttackMoatNotInHand.is_warning());
}

#[test]
fn a_malformed_turn_reply_costs_an_action_or_ends_the_turn() {
    let mut game = game_with(2, &[Village], &[]);
    assert!(!game.malformed_turn_reply());
    assert_eq!((game.actions, game.hand()), (0, [Village].as_slice()));
    assert!(game.malformed_turn_reply());
    assert_eq!(game.actions, 0);
}

mod attack;
mod random_games;
mod turn;
