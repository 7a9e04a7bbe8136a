//! The shared engine's own behaviour, and the places where the two
//! protocols' old engines differed and the data ([`TableRules`]) now
//! decides.

use super::*;
use Card::*;

/// Keeps every pile in its order.
struct NoShuffle;
impl Shuffler for NoShuffle {
    fn shuffle(&mut self, _: &mut [Card]) {}
}

fn table(rules: TableRules, players: usize) -> DominionTable {
    let names = ["a", "b", "c", "d"];
    DominionTable::new(
        rules,
        &names[..players],
        Supply::stocked(players, &[Copper, Silver, Gold, Province]),
        &mut NoShuffle,
    )
}

#[test]
fn the_deal_is_the_same_and_only_the_hands_newest_end_differs() {
    let line = table(TableRules::LINE, 2);
    let v1 = table(TableRules::V1, 2);
    // The starting deck is drawn from its end: estates first.
    assert_eq!(
        line.players[0].hand,
        [Estate, Estate, Estate, Copper, Copper]
    );
    assert_eq!(v1.players[0].hand, [Copper, Copper, Estate, Estate, Estate]);
    for t in [&line, &v1] {
        assert_eq!(t.players[1].deck, [Copper; 5]);
        assert_eq!((t.current, t.actions, t.buys, t.coins), (0, 1, 1, 0));
        assert_eq!(t.current_name(), "a");
    }
}

#[test]
fn card_moves_put_cards_at_the_newest_end() {
    for (rules, newest_first) in [(TableRules::LINE, false), (TableRules::V1, true)] {
        let mut t = table(rules, 2);
        t.players[0].hand = vec![Copper, Silver, Copper];
        t.players[0].discard = vec![Estate];
        t.play_from_hand(Copper);
        t.play_from_hand(Silver);
        t.trash_from_hand(Copper);
        t.gain_to_hand(Gold);
        t.gain_to_discard(Province);
        let newest = |list: &[Card]| {
            if newest_first {
                list.first().copied()
            } else {
                list.last().copied()
            }
        };
        assert_eq!(t.play_area.len(), 2);
        assert_eq!(newest(&t.play_area), Some(Silver));
        assert_eq!(t.trash, [Copper]);
        assert_eq!(t.players[0].hand, [Gold]);
        assert_eq!(newest(&t.players[0].discard), Some(Province));
        assert_eq!(t.gained, [Gold, Province]);
        assert_eq!(t.supply.count(Gold), 29);
        // A card not in hand moves nothing.
        t.play_from_hand(Province);
        t.trash_from_hand(Province);
        assert_eq!((t.play_area.len(), t.trash.len()), (2, 1));
    }
}

#[test]
fn a_reshuffle_takes_the_whole_discard_pile_whatever_its_order() {
    let mut p = SeatedPlayer {
        deck: vec![Gold],
        discard: vec![Estate, Silver],
        ..SeatedPlayer::default()
    };
    assert_eq!(p.draw(5, Newest::Last, &mut NoShuffle), 3);
    assert_eq!(p.hand, [Gold, Silver, Estate]);
    assert!(p.deck.is_empty() && p.discard.is_empty());
}

#[test]
fn finishing_a_turn_draws_five_counts_it_and_resets_the_counters() {
    let mut t = table(TableRules::LINE, 3);
    t.players[0].hand.clear();
    (t.actions, t.buys, t.coins) = (0, 0, 4);
    t.gained.push(Silver);
    assert_eq!(t.finish_turn(&mut NoShuffle), None);
    assert_eq!(t.players[0].hand.len(), 5);
    assert_eq!(t.players[0].turns, 1);
    assert_eq!((t.current, t.actions, t.buys, t.coins), (1, 1, 1, 0));
    assert!(t.gained.is_empty());
}

#[test]
fn the_turn_cap_is_reached_when_the_last_seat_has_taken_it() {
    // Both old engines ended a game from seat 0 after the last seat's
    // capped turn; version 1 also adopts scripted states in another seat,
    // where its rule (the last seat's turns) is the one kept.
    for rules in [TableRules::LINE, TableRules::V1] {
        let mut t = table(rules, 3);
        t.turn_cap = 2;
        let endings: Vec<_> = (0..6).map(|_| t.finish_turn(&mut NoShuffle)).collect();
        assert_eq!(endings[..5], [None; 5]);
        assert_eq!(endings[5], Some(Ending::TurnCap));
        let mut adopted = table(rules, 3);
        adopted.turn_cap = 2;
        adopted.current = 1;
        let endings: Vec<_> = (0..5)
            .map(|_| adopted.finish_turn(&mut NoShuffle))
            .collect();
        assert_eq!(endings[..4], [None; 4]);
        assert_eq!(endings[4], Some(Ending::TurnCap));
        let turns: Vec<u32> = adopted.players.iter().map(|p| p.turns).collect();
        assert_eq!(turns, [1, 2, 2]);
    }
}

#[test]
fn an_ended_game_stays_ended() {
    let mut t = table(TableRules::LINE, 2);
    t.turn_cap = 1;
    assert_eq!(t.finish_turn(&mut NoShuffle), None);
    assert_eq!(t.finish_turn(&mut NoShuffle), Some(Ending::TurnCap));
    // Seat 0 is not the last seat: its turn alone would not reach the cap.
    assert_eq!(t.finish_turn(&mut NoShuffle), Some(Ending::TurnCap));
}

#[test]
fn the_end_rules_decide_three_piles_and_ties() {
    let mut line = table(TableRules::LINE, 2);
    let mut v1 = table(TableRules::V1, 2);
    for t in [&mut line, &mut v1] {
        for c in [Copper, Silver, Gold] {
            t.supply.set(c, 0);
        }
    }
    assert_eq!(
        line.finish_turn(&mut NoShuffle),
        Some(Ending::ThreePilesEmpty)
    );
    assert_eq!(v1.finish_turn(&mut NoShuffle), None);
    // Seat 0 has taken one turn more than seat 1; both score 3.
    assert_eq!(line.scores(), [3, 3]);
    assert_eq!(line.winners(), [1]);
    assert_eq!(v1.winners(), [0, 1]);
}

#[test]
fn scores_count_every_owned_card_curses_below_zero() {
    // The old version-1 engine clamped scores at 0; with no curse in
    // version 1 (its states cannot name one) no score is negative there.
    let p = SeatedPlayer {
        deck: vec![Curse, Curse],
        hand: vec![Estate],
        ..SeatedPlayer::default()
    };
    assert_eq!(p.score(), -1);
    assert_eq!(p.owned().count(), 3);
}
