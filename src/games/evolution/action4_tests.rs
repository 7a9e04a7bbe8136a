use super::*;
use crate::games::evolution::model::Trait::*;
use serde_json::json;

fn hand(traits: &[Trait]) -> Vec<Card> {
    traits
        .iter()
        .enumerate()
        .map(|(i, t)| Card::new(i as i8 % 3, *t))
        .collect()
}

fn board(population: u32, body: u32, traits: &[Trait]) -> Species {
    Species {
        population,
        body,
        traits: traits.to_vec(),
        ..Species::default()
    }
}

fn check(v: serde_json::Value, boards: &[Species], hand: &[Card]) -> Result<(), &'static str> {
    Action4::parse(&v)
        .and_then(|a| a.validate(boards, hand))
        .map_err(|f| f.rule.id)
}

#[test]
fn shapes() {
    let b = [board(1, 0, &[])];
    let h = hand(&[Ambush; 4]);
    assert_eq!(check(json!([0, [], [], [], []]), &b, &h), Ok(()));
    for bad in [
        json!([]),
        json!([0, [], [], []]),
        json!({"fc": 0}),
        json!([0, [[1]], [], [], []]),
        json!([0, [], [], [[]], []]),
        json!([0, [], [], [[1, 2, 3, 4, 5]], []]),
        json!([0, [], [], [], [[0, 0]]]),
        json!(["0", [], [], [], []]),
        json!([0, {}, [], [], []]),
    ] {
        assert_eq!(
            check(bad.clone(), &b, &h),
            Err("evolution.choose.shape"),
            "{bad}"
        );
    }
    assert_eq!(
        check(json!([0, [["population", 0, 1]], [], [], []]), &b, &h),
        Err("evolution.choose.tagged-growth")
    );
    assert_eq!(
        check(json!([0, [], [["body", 0, 1]], [], []]), &b, &h),
        Err("evolution.choose.tagged-growth")
    );
    for bad in [
        json!([-1, [], [], [], []]),
        json!([0.0, [], [], [], []]),
        json!([1e0, [], [], [], []]),
    ] {
        assert_eq!(
            check(bad.clone(), &b, &h),
            Err("evolution.value.not-natural"),
            "{bad}"
        );
    }
    assert_eq!(check(json!([-0.0, [], [], [], []]), &b, &h), Ok(()));
}

#[test]
fn the_documents_example_is_legal_and_applies_as_described() {
    let mut boards = vec![board(1, 0, &[])];
    let mut h = hand(&[Ambush, Burrowing, Climbing, Horns]);
    let a = Action4::parse(&json!([0, [[1, 3]], [], [[1, 2]], []])).unwrap();
    assert_eq!(a.validate(&boards, &h), Ok(()));
    let food = a.apply(&mut boards, &mut h);
    assert_eq!(food, Card::new(0, Ambush));
    assert_eq!(boards[1], board(2, 0, &[Climbing]));
    assert!(h.is_empty());
    // Unused cards stay, in order.
    let mut boards = vec![board(1, 0, &[])];
    let mut h = hand(&[Ambush, Burrowing, Climbing, Horns]);
    Action4::parse(&json!([2, [], [], [], []]))
        .unwrap()
        .apply(&mut boards, &mut h);
    assert_eq!(
        h,
        hand(&[Ambush, Burrowing, Climbing, Horns])
            .into_iter()
            .filter(|c| c.trait_ != Climbing)
            .collect::<Vec<_>>()
    );
}

#[test]
fn card_indices() {
    let b = [board(1, 0, &[])];
    let h = hand(&[Ambush; 4]);
    assert_eq!(
        check(json!([4, [], [], [], []]), &b, &h),
        Err("evolution.choose.card-out-of-range")
    );
    assert_eq!(
        // What the JSON reader makes of `99999999999999999999`.
        check(json!([u64::MAX, [], [], [], []]), &b, &h),
        Err("evolution.choose.card-out-of-range")
    );
    assert_eq!(
        check(json!([0, [[0, 0]], [], [], []]), &b, &h),
        Err("evolution.choose.card-reused")
    );
    assert_eq!(
        check(json!([0, [], [], [[1, 1]], []]), &b, &h),
        Err("evolution.choose.card-reused")
    );
    // Out of range is reported before reuse.
    assert_eq!(
        check(json!([0, [[0, 0]], [[0, 9]], [], []]), &b, &h),
        Err("evolution.choose.card-out-of-range")
    );
}

#[test]
fn board_indices_count_new_boards() {
    let b = [board(1, 0, &[])];
    let h = hand(&[Ambush, Burrowing, Climbing, Horns]);
    assert_eq!(
        check(json!([0, [[1, 1]], [], [], []]), &b, &h),
        Err("evolution.choose.board-out-of-range")
    );
    assert_eq!(check(json!([0, [[1, 1]], [], [[2]], []]), &b, &h), Ok(()));
    assert_eq!(
        check(json!([0, [[2, 1]], [], [[2]], []]), &b, &h),
        Err("evolution.choose.board-out-of-range")
    );
    assert_eq!(
        check(json!([0, [], [], [[2]], [[2, 0, 1]]]), &b, &h),
        Err("evolution.choose.board-out-of-range")
    );
}

#[test]
fn growth_limits_with_the_new_board_quirk() {
    let h: Vec<Card> = (0..9).map(|i| Card::new(i - 8, Carnivore)).collect();
    let gp = |b: u64, n: u64| (1..=n).map(|c| json!([b, c])).collect::<Vec<_>>();
    let at6 = [board(6, 0, &[])];
    let at7 = [board(7, 0, &[])];
    assert_eq!(check(json!([0, gp(0, 1), [], [], []]), &at6, &h), Ok(()));
    assert_eq!(
        check(json!([0, gp(0, 1), [], [], []]), &at7, &h),
        Err("evolution.choose.population-overflow")
    );
    // New board (index 1, paid with card 8): 6 GPs fine, 7 too many.
    assert_eq!(check(json!([0, gp(1, 6), [], [[8]], []]), &at6, &h), Ok(()));
    assert_eq!(
        check(json!([0, gp(1, 7), [], [[8]], []]), &at6, &h),
        Err("evolution.choose.population-overflow")
    );
    let body0 = [board(1, 0, &[])];
    assert_eq!(check(json!([0, [], gp(0, 7), [], []]), &body0, &h), Ok(()));
    assert_eq!(
        check(json!([0, [], gp(0, 1), [], []]), &[board(1, 7, &[])], &h),
        Err("evolution.choose.body-overflow")
    );
    assert_eq!(
        check(json!([0, [], gp(1, 6), [[8]], []]), &body0, &h),
        Ok(())
    );
    let seven = Action4::parse(&json!([0, [], gp(1, 7), [[8]], []])).unwrap();
    let f = seven.validate(&body0, &h).unwrap_err();
    assert_eq!(f.rule.id, "evolution.choose.body-overflow");
    assert!(f.detail.contains("reference limit"));
}

#[test]
fn traits_on_new_and_replaced_boards() {
    let h = hand(&[Ambush, Burrowing, Ambush, Horns, Climbing, Horns]);
    let b = [board(1, 0, &[Horns, Climbing])];
    // BT with two cards of one trait.
    assert_eq!(
        check(json!([1, [], [], [[3, 0, 2]], []]), &b, &h),
        Err("evolution.choose.duplicate-trait")
    );
    // RT position 0 on a new board with one trait: fine; position 1: no.
    assert_eq!(
        check(json!([1, [], [], [[3, 0]], [[1, 0, 4]]]), &b, &h),
        Ok(())
    );
    assert_eq!(
        check(json!([1, [], [], [[3, 0]], [[1, 1, 4]]]), &b, &h),
        Err("evolution.choose.trait-position")
    );
    assert_eq!(
        check(json!([1, [], [], [[3]], [[1, 0, 4]]]), &b, &h),
        Err("evolution.choose.trait-position")
    );
    // RT bringing a trait the board has elsewhere.
    assert_eq!(
        check(json!([1, [], [], [], [[0, 0, 4]]]), &b, &h),
        Err("evolution.choose.duplicate-trait")
    );
    // Replacing a trait with another card of the same trait.
    assert_eq!(check(json!([1, [], [], [], [[0, 0, 5]]]), &b, &h), Ok(()));
    // Two RTs on the same position: the later wins.
    assert_eq!(
        check(json!([1, [], [], [], [[0, 0, 0], [0, 0, 2]]]), &b, &h),
        Ok(())
    );
    // Two RTs on different positions bringing the same trait (D11).
    assert_eq!(
        check(json!([1, [], [], [], [[0, 0, 0], [0, 1, 2]]]), &b, &h),
        Err("evolution.choose.duplicate-trait")
    );
    // A two-RT swap: each RT alone duplicates.
    assert_eq!(
        check(json!([1, [], [], [], [[0, 0, 4], [0, 1, 3]]]), &b, &h),
        Err("evolution.choose.duplicate-trait")
    );
}

#[test]
fn application_order_and_hand_removal() {
    let mut boards = vec![board(1, 0, &[Horns])];
    let mut h = hand(&[
        Ambush, Burrowing, Climbing, Horns, Fertile, Foraging, LongNeck, Scavenger,
    ]);
    let a = Action4::parse(&json!([
        6,
        [[1, 2]],
        [[1, 3]],
        [[0, 4, 5]],
        [[1, 1, 7], [0, 0, 1]]
    ]))
    .unwrap();
    assert_eq!(a.validate(&boards, &h), Ok(()));
    let food = a.apply(&mut boards, &mut h);
    assert_eq!(food.trait_, LongNeck);
    assert_eq!(boards[0].traits, vec![Burrowing]);
    assert_eq!(boards[1], board(2, 1, &[Fertile, Scavenger]));
    assert!(h.is_empty());
    assert_eq!(
        a.to_json(),
        json!([6, [[1, 2]], [[1, 3]], [[0, 4, 5]], [[1, 1, 7], [0, 0, 1]]])
    );
}
