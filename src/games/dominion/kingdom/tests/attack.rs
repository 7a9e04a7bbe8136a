//! Militia against hands of 3, 4 and 5, moat, and bad discards (§3.6).

use super::*;

/// Seat 0 plays militia against the others' hands.
fn militia_against(hands: &[&[Card]]) -> DominionTable {
    let mut game = game_with(hands.len() + 1, &[Militia], &[]);
    for (i, h) in hands.iter().enumerate() {
        game.players[i + 1].hand = h.to_vec();
    }
    assert!(game.play_action(Militia, &[], &mut NoShuffle).attack);
    game
}

#[test]
fn militia_asks_hand_size_minus_three_and_spares_hands_of_three() {
    let game = militia_against(&[
        &[Copper, Copper, Estate],
        &[Copper, Copper, Estate, Gold],
        &[Copper, Copper, Estate, Gold, Moat],
    ]);
    let asked: Vec<_> = game
        .attack_order()
        .map(|s| (s, game.attack_discard_count(s)))
        .collect();
    assert_eq!(asked, [(1, None), (2, Some(1)), (3, Some(2))]);
    assert_eq!(game.attack_discard_count(0), None);
    assert_eq!(game.coins, 2);
}

#[test]
fn attack_order_starts_after_the_attacker() {
    let mut game = DominionTable::line(4, &mut NoShuffle);
    game.current = 2;
    assert_eq!(game.attack_order().collect::<Vec<_>>(), [3, 0, 1]);
}

#[test]
fn militia_valid_discard_and_moat() {
    let mut game = militia_against(&[&[Copper, Estate, Gold, Estate, Moat]]);
    let out = game.resolve_attack(
        1,
        Some(AttackReply::Discard(&[Estate, Estate])),
        &mut NoShuffle,
    );
    assert_eq!(
        (out.rule, out.discarded.as_slice()),
        (None, [Estate, Estate].as_slice())
    );
    assert_eq!(game.players[1].hand, [Copper, Gold, Moat]);
    assert_eq!(game.players[1].discard.last(), Some(&Estate));

    let mut game = militia_against(&[&[Copper, Estate, Gold, Estate, Moat]]);
    let out = game.resolve_attack(1, Some(AttackReply::RevealMoat), &mut NoShuffle);
    assert!(out.revealed_moat && out.rule.is_none() && out.discarded.is_empty());
    assert_eq!(game.players[1].hand.len(), 5);
}

#[test]
fn militia_bad_replies_get_their_rule_and_a_random_discard() {
    let hand = [Copper, Estate, Gold, Estate];
    let cases: [(Option<AttackReply>, Option<&str>); 5] = [
        (
            Some(AttackReply::Discard(&[Estate, Estate])),
            Some("dominion-text.attack.wrong-count"),
        ),
        (
            Some(AttackReply::Discard(&[])),
            Some("dominion-text.attack.wrong-count"),
        ),
        (
            Some(AttackReply::Discard(&[Silver])),
            Some("dominion-text.attack.not-in-hand"),
        ),
        (
            Some(AttackReply::RevealMoat),
            Some("dominion-text.attack.moat-not-in-hand"),
        ),
        (None, None),
    ];
    for (reply, id) in cases {
        let mut game = militia_against(&[&hand]);
        let out = game.resolve_attack(1, reply, &mut NoShuffle);
        assert_eq!(out.rule.map(Rule::id), id, "{reply:?}");
        // NoShuffle: the "random" pick is the first card.
        assert_eq!(out.discarded, [Copper]);
        assert_eq!(game.players[1].hand, [Estate, Gold, Estate]);
    }
    // The multiset: one estate is not two.
    let mut game = militia_against(&[&[Copper, Estate, Gold, Silver, Silver]]);
    let out = game.resolve_attack(
        1,
        Some(AttackReply::Discard(&[Silver, Silver])),
        &mut NoShuffle,
    );
    assert_eq!(out.rule, None);
    let game = militia_against(&[&[Copper, Estate, Gold, Silver, Moat]]);
    assert_eq!(
        game.check_attack(1, AttackReply::Discard(&[Silver, Silver])),
        Err(Rule::AttackNotInHand)
    );
}
