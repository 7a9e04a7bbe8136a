//! Buys left to right, clean-up, the end of the game and the tie-break
//! (§3.4, §3.3, §3.8).

use super::*;

#[test]
fn buys_play_every_treasure_and_go_left_to_right() {
    let mut game = game_with(2, &[Copper, Estate, Silver, Gold], &[]);
    game.coins = 2;
    game.buys = 2;
    let out = game.buy(&[Silver, Smithy]);
    assert_eq!(out.money, 8);
    assert_eq!(
        (out.rule, out.bought.as_slice()),
        (None, [Silver, Smithy].as_slice())
    );
    assert_eq!(game.hand(), [Estate]);
    assert_eq!(game.play_area, [Copper, Silver, Gold]);
    assert_eq!(game.players[0].discard, [Silver, Smithy]);
}

#[test]
fn each_buy_stop_ends_the_list_with_its_one_warning() {
    let hand = [Gold, Gold];
    // (list, buys, the pile emptied, the stop's id, what was bought)
    type Case<'a> = (&'a [Card], u32, Option<Card>, &'a str, &'a [Card]);
    let cases: [Case; 3] = [
        (
            &[Silver, Silver],
            1,
            None,
            "dominion-text.buy.more-than-buys",
            &[Silver],
        ),
        (
            &[Gold, Silver],
            2,
            Some(Gold),
            "dominion-text.buy.pile-empty",
            &[],
        ),
        (
            &[Silver, Gold, Copper],
            3,
            None,
            "dominion-text.buy.unaffordable",
            &[Silver],
        ),
    ];
    for (list, buys, empty, id, bought) in cases {
        let mut game = game_with(2, &hand, &[]);
        game.buys = buys;
        if let Some(c) = empty {
            game.supply.set(c, 0);
        }
        let out = game.buy(list);
        assert_eq!(out.rule.map(Rule::id), Some(id));
        assert!(out.rule.is_some_and(Rule::is_warning));
        assert_eq!(out.bought, bought, "{id}");
    }
}

#[test]
fn an_empty_buy_is_a_pass_with_a_warning() {
    let mut game = game_with(2, &[Copper], &[]);
    let out = game.buy(&[]);
    assert_eq!(out.rule.map(Rule::id), Some("dominion-text.buy.empty"));
    assert_eq!(game.hand(), [Copper]);
    assert!(game.play_area.is_empty());
}

#[test]
fn a_treasure_gained_by_mine_counts_for_the_buy() {
    let mut game = game_with(2, &[Mine, Silver], &[]);
    game.play_action(Mine, &[Silver, Gold], &mut NoShuffle);
    let out = game.buy(&[Silver]);
    assert_eq!((out.money, out.bought.as_slice()), (3, [Silver].as_slice()));
    assert_eq!(game.play_area, [Mine, Gold]);
}

#[test]
fn clean_up_puts_the_last_played_card_on_top_and_draws_five() {
    let mut game = game_with(
        2,
        &[Village, Gold, Estate],
        &[Gold, Silver, Copper, Copper, Copper, Duchy],
    );
    game.play_action(Village, &[], &mut NoShuffle);
    game.buy(&[Silver]);
    let end = game.end_turn(&mut NoShuffle);
    assert_eq!(end.seat, 0);
    assert_eq!(end.gained, [Silver]);
    assert_eq!(end.played, [Village, Gold]);
    assert_eq!(end.top_discard, Some(Gold));
    // The hand (with the duchy village drew), then the play area.
    assert_eq!(
        game.players[0].discard,
        [Silver, Estate, Duchy, Village, Gold]
    );
    assert_eq!(end.ending, None);
    assert_eq!(game.players[0].hand.len(), 5);
    assert_eq!(game.players[0].turns, 1);
    assert_eq!(
        (game.current, game.actions, game.buys, game.coins),
        (1, 1, 1, 0)
    );
}

#[test]
fn clean_up_after_a_pass_picks_victory_then_treasure_then_action() {
    for (hand, top) in [
        (vec![Copper, Smithy, Estate, Silver], Some(Estate)),
        (vec![Smithy, Silver, Copper], Some(Silver)),
        (vec![Smithy, Village], Some(Smithy)),
        (vec![Copper, Curse], Some(Curse)),
    ] {
        let mut game = game_with(2, &hand, &[]);
        let end = game.end_turn(&mut NoShuffle);
        assert_eq!(end.top_discard, top, "{hand:?}");
    }
    // Nothing discarded: the existing top stays.
    let mut game = game_with(2, &[], &[]);
    game.players[0].discard = vec![Duchy];
    assert_eq!(game.end_turn(&mut NoShuffle).top_discard, Some(Duchy));
    let mut game = game_with(2, &[], &[]);
    assert_eq!(game.end_turn(&mut NoShuffle).top_discard, None);
}

#[test]
fn the_game_ends_when_the_provinces_are_gone_or_three_piles_are_empty() {
    let mut game = game_with(2, &[], &[]);
    game.supply.set(Province, 0);
    assert_eq!(
        game.end_turn(&mut NoShuffle).ending,
        Some(Ending::ProvincesGone)
    );

    let mut game = game_with(2, &[], &[]);
    game.supply.set(Curse, 0);
    game.supply.set(Village, 0);
    assert_eq!(game.end_turn(&mut NoShuffle).ending, None);
    game.supply.set(Moat, 0);
    assert_eq!(
        game.end_turn(&mut NoShuffle).ending,
        Some(Ending::ThreePilesEmpty)
    );
}

#[test]
fn the_turn_cap_ends_the_game_when_every_seat_has_had_its_turns() {
    let mut game = DominionTable::line(3, &mut NoShuffle);
    game.turn_cap = 2;
    let mut endings = Vec::new();
    for _ in 0..6 {
        endings.push(game.end_turn(&mut NoShuffle).ending);
    }
    assert_eq!(endings[..5], [None; 5]);
    assert_eq!(endings[5], Some(Ending::TurnCap));
}

#[test]
fn the_tie_break_is_fewer_turns_then_a_shared_win() {
    let mut game = DominionTable::line(3, &mut NoShuffle);
    game.players[0].discard.push(Duchy);
    game.players[1].discard.push(Duchy);
    game.players[2].discard.push(Curse);
    assert_eq!(game.scores(), [6, 6, 2]);
    for p in &mut game.players {
        p.turns = 4;
    }
    assert_eq!(game.winners(), [0, 1]);
    game.players[0].turns = 5;
    assert_eq!(game.winners(), [1]);
    game.players[2].discard.extend([Province, Province]);
    assert_eq!(game.winners(), [2]);
}
