use super::*;
use crate::games::evolution::model::Trait::*;

fn sp(food: u32, body: u32, population: u32, traits: &[Trait]) -> Species {
    Species {
        food,
        body,
        population,
        traits: traits.to_vec(),
        fat_food: 0,
    }
}

fn dealer(boards: Vec<Vec<Species>>, wh: u32) -> Dealer {
    Dealer {
        players: boards
            .into_iter()
            .enumerate()
            .map(|(i, boards)| Player {
                id: i as u64 + 1,
                boards,
                ..Player::default()
            })
            .collect(),
        watering_hole: wh,
        deck: full_deck().into(),
    }
}

fn never(_: &Dealer, _: usize, _: &[FeedOption]) -> Option<FeedOption> {
    panic!("nobody should be asked")
}

#[test]
fn attack_predicate_trait_by_trait() {
    let a = sp(0, 0, 1, &[Carnivore]);
    let plain = sp(0, 0, 1, &[]);
    let warn = sp(0, 0, 1, &[WarningCall]);
    assert!(attackable(&a, &plain, None, None), "no body requirement");
    assert!(!attackable(&a, &plain, Some(&warn), None));
    assert!(!attackable(&a, &plain, None, Some(&warn)));
    assert!(attackable(
        &sp(0, 0, 1, &[Carnivore, Ambush]),
        &plain,
        Some(&warn),
        None
    ));
    assert!(
        attackable(&a, &warn, None, None),
        "own warning-call does not protect"
    );
    let burrow_full = sp(1, 0, 1, &[Burrowing]);
    assert!(!attackable(&a, &burrow_full, None, None));
    assert!(attackable(&a, &sp(0, 0, 2, &[Burrowing]), None, None));
    assert!(!attackable(&a, &sp(0, 0, 1, &[Climbing]), None, None));
    assert!(attackable(
        &sp(0, 0, 1, &[Carnivore, Climbing]),
        &sp(0, 0, 1, &[Climbing]),
        None,
        None
    ));
    // Herding: equal populations block; pack-hunting adds body (reference).
    let herd = sp(0, 0, 3, &[Herding]);
    assert!(!attackable(&sp(0, 0, 3, &[Carnivore]), &herd, None, None));
    assert!(attackable(&sp(0, 0, 4, &[Carnivore]), &herd, None, None));
    let pack = sp(0, 2, 2, &[Carnivore, PackHunting]);
    assert!(attackable(&pack, &herd, None, None));
    assert!(!attackable_by_rules(&pack, &herd, None, None));
    // Hard-shell body 2: plain attacker needs body 7 (more than 4 larger).
    let shell = sp(0, 2, 1, &[HardShell]);
    assert!(!attackable(&sp(0, 5, 1, &[Carnivore]), &shell, None, None));
    assert!(!attackable(&sp(0, 6, 1, &[Carnivore]), &shell, None, None));
    assert!(
        attackable_by_rules(&sp(0, 6, 1, &[Carnivore]), &shell, None, None),
        "D3"
    );
    assert!(attackable(&sp(0, 7, 1, &[Carnivore]), &shell, None, None));
    assert!(attackable(
        &sp(0, 3, 4, &[Carnivore, PackHunting]),
        &shell,
        None,
        None
    ));
    // A hard-shell attacker gets +4 too (quirk).
    assert!(attackable(
        &sp(0, 3, 1, &[Carnivore, HardShell]),
        &sp(0, 2, 1, &[HardShell]),
        None,
        None
    ));
    // Symbiosis: the reference ignores it, the rules block.
    let sym = sp(0, 1, 1, &[Symbiosis]);
    let big = sp(0, 3, 1, &[]);
    assert!(attackable(&a, &sym, None, Some(&big)));
    assert!(!attackable_by_rules(&a, &sym, None, Some(&big)));
    assert!(
        attackable(&a, &sp(0, 0, 1, &[Horns]), None, None),
        "horns never block"
    );
}

#[test]
fn options_in_the_reference_order_and_fat_room() {
    let mut fat = sp(1, 3, 1, &[FatTissue]);
    fat.fat_food = 1;
    let mine = vec![
        sp(0, 0, 2, &[]),
        sp(0, 0, 1, &[Carnivore]),
        fat,
        sp(1, 1, 1, &[]),
    ];
    let other = vec![sp(0, 0, 1, &[]), sp(0, 0, 1, &[Climbing]), sp(0, 0, 1, &[])];
    let opts = options(&mine, &[&other]);
    assert_eq!(
        opts,
        vec![
            FeedOption::Vegetarian(0),
            FeedOption::Fat {
                species: 2,
                amount: 2
            },
            FeedOption::Attack {
                attacker: 1,
                player: 0,
                target: 2
            },
            FeedOption::Attack {
                attacker: 1,
                player: 0,
                target: 0
            },
        ]
    );
    let fat = FeedOption::Fat {
        species: 2,
        amount: 2,
    };
    assert!(fat.accepts(FeedOption::Fat {
        species: 2,
        amount: 1
    }));
    assert!(!fat.accepts(FeedOption::Fat {
        species: 2,
        amount: 3
    }));
    assert!(!fat.accepts(FeedOption::Fat {
        species: 2,
        amount: 0
    }));
}

#[test]
fn cooperation_and_foraging_chain_of_the_reference_test() {
    let mut d = dealer(
        vec![vec![
            sp(0, 0, 5, &[Foraging, Cooperation]),
            sp(0, 0, 5, &[Foraging, Cooperation]),
            sp(0, 0, 3, &[]),
        ]],
        12,
    );
    d.feed_species(0, 0);
    let foods: Vec<u32> = d.players[0].boards.iter().map(|s| s.food).collect();
    assert_eq!((foods, d.watering_hole), (vec![2, 4, 3], 3));
}

#[test]
fn feeding_stops_when_the_watering_hole_runs_dry() {
    let mut d = dealer(vec![vec![sp(0, 0, 3, &[Cooperation]), sp(0, 0, 3, &[])]], 1);
    d.feed_species(0, 0);
    assert_eq!(
        (d.players[0].boards[0].food, d.players[0].boards[1].food),
        (1, 0)
    );
    assert_eq!(d.watering_hole, 0);
}

#[test]
fn horns_kill_the_attacker_which_then_does_not_eat_nor_do_scavengers() {
    let mut d = dealer(
        vec![
            vec![sp(0, 0, 1, &[Carnivore]), sp(0, 0, 2, &[Scavenger])],
            vec![sp(0, 0, 2, &[Horns])],
        ],
        5,
    );
    let hand_before = d.players[0].hand.len();
    d.attack(0, 0, 1, 0);
    assert_eq!(d.players[1].boards[0].population, 1);
    assert_eq!(d.players[0].boards.len(), 1, "the attacker died");
    assert_eq!(d.players[0].hand.len(), hand_before + 2);
    assert_eq!(d.players[0].boards[0].food, 0, "no scavenging");
    assert_eq!(d.watering_hole, 5);
}

#[test]
fn an_attack_feeds_the_attacker_then_scavengers_from_its_owner_on() {
    let mut d = dealer(
        vec![
            vec![
                sp(0, 0, 2, &[Carnivore, Scavenger]),
                sp(0, 0, 1, &[Scavenger]),
            ],
            vec![sp(0, 0, 1, &[])],
            vec![sp(0, 0, 1, &[Scavenger])],
        ],
        3,
    );
    d.apply_option(
        0,
        FeedOption::Attack {
            attacker: 0,
            player: 0,
            target: 0,
        },
    );
    // The defender died: its owner got 2 cards at the front, in deck order.
    assert!(d.players[1].boards.is_empty());
    assert_eq!(d.players[1].hand, full_deck()[..2].to_vec());
    let foods: Vec<u32> = d.players[0].boards.iter().map(|s| s.food).collect();
    assert_eq!(foods, vec![2, 1], "attacker eats, then scavenges itself");
    assert_eq!(d.players[2].boards[0].food, 0, "the watering hole ran dry");
    assert_eq!(d.watering_hole, 0);
}

#[test]
fn automatic_phase_order_fertile_long_neck_fat() {
    let mut s = sp(0, 3, 6, &[Fertile, LongNeck, FatTissue]);
    s.fat_food = 3;
    let mut d = dealer(vec![vec![s, sp(0, 0, 7, &[Fertile])]], 1);
    d.automatic_phase();
    let b = &d.players[0].boards;
    // Fertile 6 → 7; long-neck eats 1; fat moves 3 (room 6).
    assert_eq!((b[0].population, b[0].food, b[0].fat_food), (7, 4, 0));
    assert_eq!(b[1].population, 7, "not above 7");
    assert_eq!(d.watering_hole, 0);
}

#[test]
fn one_option_is_automatic_and_two_ask() {
    let mut d = dealer(vec![vec![sp(0, 0, 1, &[])], vec![sp(0, 0, 1, &[])]], 5);
    let mut queue: VecDeque<u64> = [1, 2].into();
    assert_eq!(
        d.feed1(&mut queue, &mut never),
        Fed::Automatic(FeedOption::Vegetarian(0))
    );
    assert_eq!(queue, VecDeque::from([2, 1]));
    let mut d = dealer(vec![vec![sp(0, 0, 1, &[]), sp(0, 0, 1, &[])]], 5);
    let mut queue: VecDeque<u64> = [1].into();
    let mut asked = 0;
    let fed = d.feed1(&mut queue, &mut |_: &Dealer, _: usize, o: &[FeedOption]| {
        asked += 1;
        assert_eq!(o.len(), 2);
        Some(FeedOption::Vegetarian(1))
    });
    assert_eq!((fed, asked), (Fed::Chosen(FeedOption::Vegetarian(1)), 1));
    // A choice that is no option drops the player.
    let fed = d.feed1(&mut queue, &mut |_: &Dealer, _: usize, _: &[FeedOption]| {
        Some(FeedOption::Vegetarian(1))
    });
    assert_eq!(fed, Fed::Automatic(FeedOption::Vegetarian(0)));
    let mut d = dealer(vec![vec![sp(0, 0, 1, &[]), sp(0, 0, 1, &[])], vec![]], 5);
    let mut queue: VecDeque<u64> = [1, 2].into();
    let fed = d.feed1(&mut queue, &mut |_: &Dealer, _: usize, _: &[FeedOption]| {
        None
    });
    assert_eq!(fed, Fed::Dropped);
    assert_eq!(d.players.len(), 1);
    assert_eq!(queue, VecDeque::from([2]));
}

#[test]
fn fat_requests_store_at_most_the_watering_hole() {
    let mut d = dealer(vec![vec![sp(0, 5, 1, &[FatTissue])]], 2);
    d.apply_option(
        0,
        FeedOption::Fat {
            species: 0,
            amount: 5,
        },
    );
    assert_eq!((d.players[0].boards[0].fat_food, d.watering_hole), (2, 0));
}

#[test]
fn food_cards_clamp_after_each_player() {
    let mut d = dealer(vec![vec![], vec![]], 0);
    d.players[0].hand = vec![Card::new(-3, Ambush)];
    d.players[1].hand = vec![Card::new(3, Ambush)];
    let fc = Action4::default();
    d.apply_actions(&[fc.clone(), fc]);
    assert_eq!(d.watering_hole, 3);
}

#[test]
fn a_turn_deals_cleans_up_and_rotates() {
    let mut d = Dealer::new([7, 8, 9]);
    assert!(!d.over_reference());
    d.step1();
    assert_eq!(d.players[0].hand, full_deck()[..4].to_vec());
    assert_eq!(d.players[2].hand, full_deck()[8..12].to_vec());
    assert_eq!(d.deck.len(), 110);
    d.players[0].boards[0].food = 1;
    d.cleanup();
    // Player 7 banked its food; 8 and 9 starved: 2 cards each at the front.
    assert_eq!((d.players[0].bag, d.players[0].boards.len()), (1, 1));
    assert!(d.players[1].boards.is_empty());
    assert_eq!(d.players[1].hand[..2], full_deck()[12..14]);
    assert_eq!(d.players[1].hand.len(), 6);
    assert_eq!(Dealer::score_reference(&d.players[0]), 2);
    assert_eq!(Dealer::score_rules(&d.players[0]), 2);
    d.rotate();
    assert_eq!(
        d.players.iter().map(|p| p.id).collect::<Vec<_>>(),
        vec![8, 9, 7]
    );
}

#[test]
fn end_of_game_counts_cards_needed() {
    let mut d = Dealer::new([1, 2, 3]);
    d.deck.truncate(9);
    // Reference: 3 per board-less player = 9 needed: not over.
    assert!(!d.over_reference());
    // protocheck's count includes the fresh boards: 12 needed.
    assert!(d.over());
    d.deck.truncate(8);
    assert!(d.over_reference());
    assert!(Dealer::new([]).over_reference());
}

#[test]
fn extinct_species_leave_later_boards_shifted() {
    let mut d = dealer(
        vec![vec![
            sp(0, 0, 1, &[]),
            sp(1, 0, 2, &[Horns]),
            sp(0, 0, 1, &[]),
        ]],
        0,
    );
    d.cleanup();
    assert_eq!(d.players[0].boards.len(), 1);
    assert_eq!(d.players[0].boards[0].traits, vec![Horns]);
    assert_eq!(d.players[0].hand.len(), 4);
    assert_eq!(d.players[0].bag, 1);
}

#[test]
fn the_feeding_cycle_runs_until_food_or_options_run_out() {
    let mut d = dealer(
        vec![
            vec![sp(0, 0, 2, &[])],
            vec![sp(0, 0, 3, &[LongNeck])],
            vec![sp(0, 0, 1, &[Carnivore])],
        ],
        4,
    );
    let mut asked = Vec::new();
    d.feeding_cycle(&mut |_: &Dealer, p: usize, o: &[FeedOption]| {
        asked.push((p, o.to_vec()));
        Some(o[0])
    });
    // Long-neck eats 1 (wh 3); seat 0 and seat 1 have one option each and
    // are fed without asking (wh 1); the carnivore can attack either other
    // player, so it is asked; it attacks seat 0 and eats the last token.
    assert_eq!(
        asked,
        vec![(
            2,
            vec![
                FeedOption::Attack {
                    attacker: 0,
                    player: 0,
                    target: 0
                },
                FeedOption::Attack {
                    attacker: 0,
                    player: 1,
                    target: 0
                },
            ]
        )]
    );
    let b = |p: usize| {
        (
            d.players[p].boards[0].food,
            d.players[p].boards[0].population,
        )
    };
    assert_eq!((b(0), b(1), b(2)), ((1, 1), (2, 3), (1, 1)));
    assert_eq!(d.watering_hole, 0);
}
