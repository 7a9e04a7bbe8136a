use super::*;
use Card::*;

/// Leaves piles in their order: tests choose draw orders with `stack_deck`.
struct NoShuffle;
impl Shuffler for NoShuffle {
    fn shuffle(&mut self, _: &mut [Card]) {}
}

/// Alpha's turn with this hand (bravo holds nothing), a full 2-player supply,
/// an empty deck unless `deck` is given.
fn turn(hand: &[Card], deck: &[Card]) -> DominionTable {
    DominionTable::from_state(&State {
        players: vec!["alpha".into(), "bravo".into()],
        supply: Supply::v1(2).cards(),
        actions: 1,
        buys: 1,
        deck: deck.to_vec(),
        hand: hand.to_vec(),
        ..State::default()
    })
}

fn id(game: &mut DominionTable, play: Play) -> &'static str {
    let before = game.clone();
    let err = game
        .apply(play, &mut NoShuffle)
        .expect_err("an illegal play");
    assert_eq!(*game, before, "an illegal play changed the game");
    err.rule.id
}

fn ok(game: &mut DominionTable, play: Play) -> Outcome {
    game.apply(play, &mut NoShuffle)
        .unwrap_or_else(|e| panic!("{play}: {} {}", e.rule.id, e.detail))
}

fn mine(trash: Card, gain: Card) -> Play {
    Play::Mine { trash, gain }
}

#[test]
fn supply_sizes_per_player_count() {
    let counts = |n| Card::V1.map(|c| Supply::v1(n).count(c));
    assert_eq!(counts(2), [46, 40, 30, 8, 8, 8, 10]);
    assert_eq!(counts(3), [39, 40, 30, 12, 12, 12, 10]);
    assert_eq!(counts(4), [32, 40, 30, 12, 12, 12, 10]);
    let flat = Supply::v1(2).cards();
    assert_eq!(flat.len(), 46 + 40 + 30 + 8 + 8 + 8 + 10);
    assert!(
        flat.windows(2).all(|w| w[0] <= w[1]),
        "grouped in pile order"
    );
}

#[test]
fn a_new_game_deals_ten_cards_and_five_in_hand_per_seat() {
    let mut rng = fastrand::Rng::with_seed(7);
    let game = DominionTable::v1(&["alpha", "bravo", "charlie"], Supply::v1(3), &mut rng);
    for seat in &game.players {
        assert_eq!(seat.hand.len(), 5);
        assert_eq!(seat.deck.len(), 5);
        let all: Vec<Card> = seat.hand.iter().chain(&seat.deck).copied().collect();
        assert_eq!(all.iter().filter(|&&c| c == Copper).count(), 7);
        assert_eq!(all.iter().filter(|&&c| c == Estate).count(), 3);
        assert!(seat.discard.is_empty());
    }
    assert_eq!(
        (game.current, game.actions, game.buys, game.coins),
        (0, 1, 1, 0)
    );
    assert!(game.trash.is_empty() && game.play_area.is_empty());
    // The same seed deals the same game.
    let again = DominionTable::v1(
        &["alpha", "bravo", "charlie"],
        Supply::v1(3),
        &mut fastrand::Rng::with_seed(7),
    );
    assert_eq!(again, game);
}

#[test]
fn the_snapshot_starts_with_the_current_player_and_sorts_the_deck() {
    let mut game = turn(&[Copper], &[Estate, Copper, Mine, Gold]);
    let s = game.snapshot();
    assert_eq!(s.players, ["alpha", "bravo"]);
    assert_eq!(s.deck, [Copper, Estate, Gold, Mine]);
    assert_eq!(
        game.players[0].deck,
        [Estate, Copper, Mine, Gold],
        "draw order kept"
    );
    ok(&mut game, Play::Clean(Some(Copper)));
    assert_eq!(game.snapshot().players, ["bravo", "alpha"]);
}

#[test]
fn mine_checks_in_the_reference_order() {
    assert_eq!(
        id(&mut turn(&[Silver, Copper], &[]), mine(Silver, Gold)),
        "dominion-sexp.mine.not-in-hand"
    );
    let mut no_actions = turn(&[Mine, Silver], &[]);
    no_actions.actions = 0;
    // No actions is reported before the missing treasure.
    assert_eq!(
        id(&mut no_actions, mine(Gold, Gold)),
        "dominion-sexp.mine.no-actions"
    );
    assert_eq!(
        id(&mut turn(&[Mine, Copper], &[]), mine(Silver, Gold)),
        "dominion-sexp.mine.trash-not-in-hand"
    );
    let mut no_gold = turn(&[Mine, Silver], &[]);
    no_gold.supply = Supply::from_piles(&[(Copper, 3), (Silver, 2)]);
    assert_eq!(
        id(&mut no_gold, mine(Silver, Gold)),
        "dominion-sexp.mine.gain-not-in-supply"
    );
    assert_eq!(
        id(&mut turn(&[Mine, Copper], &[]), mine(Copper, Gold)),
        "dominion-sexp.mine.too-expensive"
    );
}

#[test]
fn mine_compares_costs_so_silver_to_gold_is_legal() {
    for (trash, gain) in [
        (Silver, Gold),
        (Copper, Silver),
        (Copper, Copper),
        (Silver, Silver),
        (Gold, Copper),
        (Gold, Gold),
    ] {
        let mut game = turn(&[Mine, trash], &[]);
        assert_eq!(
            ok(&mut game, mine(trash, gain)),
            Outcome::Continue,
            "{trash}->{gain}"
        );
    }
}

#[test]
fn mine_moves_the_cards_to_the_fronts_of_their_lists() {
    let mut game = turn(&[Copper, Mine, Silver, Estate], &[]);
    game.trash = vec![Estate];
    let golds = game.supply.count(Gold);
    ok(&mut game, mine(Silver, Gold));
    assert_eq!(game.players[0].hand, [Gold, Copper, Estate]);
    assert_eq!(game.trash, [Silver, Estate]);
    assert_eq!(game.play_area, [Mine]);
    assert_eq!(game.supply.count(Gold), golds - 1);
    assert_eq!(game.actions, 0);
    // The gained treasure can be added at once.
    ok(&mut game, Play::Add(Gold));
    assert_eq!(game.coins, 3);
}

#[test]
fn a_second_mine_needs_a_second_action() {
    let mut game = turn(&[Mine, Mine, Copper, Copper], &[]);
    ok(&mut game, mine(Copper, Silver));
    assert_eq!(
        id(&mut game, mine(Copper, Silver)),
        "dominion-sexp.mine.no-actions"
    );
    let mut two = turn(&[Mine, Mine, Copper, Copper], &[]);
    two.actions = 2;
    ok(&mut two, mine(Copper, Silver));
    ok(&mut two, mine(Silver, Gold));
    assert_eq!(two.play_area, [Mine, Mine]);
}

#[test]
fn mine_after_an_add_or_a_buy_has_no_action() {
    let mut game = turn(&[Mine, Copper, Silver], &[]);
    ok(&mut game, Play::Add(Copper));
    assert_eq!(game.actions, 0);
    assert_eq!(
        id(&mut game, mine(Silver, Gold)),
        "dominion-sexp.mine.no-actions"
    );
    let mut game = turn(&[Mine, Silver], &[]);
    ok(&mut game, Play::Buy(Copper));
    assert_eq!(
        id(&mut game, mine(Silver, Gold)),
        "dominion-sexp.mine.no-actions"
    );
}

#[test]
fn plays_the_grammar_would_refuse_are_refused_too() {
    let mut game = turn(&[Mine, Estate, Copper], &[]);
    assert_eq!(
        id(&mut game, Play::Add(Estate)),
        "dominion-sexp.grammar.not-treasure"
    );
    assert_eq!(
        id(&mut game, mine(Estate, Silver)),
        "dominion-sexp.grammar.not-treasure"
    );
    assert_eq!(
        id(&mut game, mine(Copper, Duchy)),
        "dominion-sexp.grammar.not-treasure"
    );
    game.supply = Supply::from_piles(&[(Smithy, 10)]);
    assert_eq!(
        id(&mut game, Play::Buy(Smithy)),
        "dominion-sexp.grammar.unknown-card"
    );
}

#[test]
fn add_plays_one_treasure_for_its_value() {
    let mut game = turn(&[Copper, Silver, Copper], &[]);
    ok(&mut game, Play::Add(Copper));
    ok(&mut game, Play::Add(Silver));
    assert_eq!(game.players[0].hand, [Copper]);
    assert_eq!(game.play_area, [Silver, Copper]);
    assert_eq!((game.coins, game.actions), (3, 0));
    assert_eq!(
        id(&mut game, Play::Add(Silver)),
        "dominion-sexp.add.not-in-hand"
    );
    assert_eq!(
        id(&mut game, Play::Add(Gold)),
        "dominion-sexp.add.not-in-hand"
    );
}

#[test]
fn add_needs_a_buy_left_and_checks_the_hand_first() {
    let mut game = turn(&[Copper, Copper], &[]);
    ok(&mut game, Play::Add(Copper));
    ok(&mut game, Play::Buy(Copper));
    assert_eq!(
        id(&mut game, Play::Add(Copper)),
        "dominion-sexp.add.no-buys"
    );
    assert_eq!(
        id(&mut game, Play::Add(Gold)),
        "dominion-sexp.add.not-in-hand"
    );
    // Actions do not matter to add.
    let mut game = turn(&[Copper], &[]);
    game.actions = 0;
    ok(&mut game, Play::Add(Copper));
}

#[test]
fn buy_checks_buys_then_supply_then_cost() {
    let mut game = turn(&[], &[]);
    game.coins = 7;
    assert_eq!(
        id(&mut game, Play::Buy(Province)),
        "dominion-sexp.buy.too-expensive"
    );
    game.coins = 8;
    game.supply = Supply::from_piles(&[(Copper, 1), (Gold, 1)]);
    assert_eq!(
        id(&mut game, Play::Buy(Province)),
        "dominion-sexp.buy.not-in-supply"
    );
    game.buys = 0;
    // No buys is reported before the empty pile.
    assert_eq!(
        id(&mut game, Play::Buy(Province)),
        "dominion-sexp.buy.no-buys"
    );
}

#[test]
fn buy_at_exact_cost_and_copper_for_nothing() {
    let mut game = turn(&[], &[]);
    game.coins = 8;
    ok(&mut game, Play::Buy(Province));
    assert_eq!((game.coins, game.buys, game.actions), (0, 0, 0));
    assert_eq!(game.players[0].discard, [Province]);
    assert_eq!(game.supply.count(Province), 7);
    assert_eq!(
        id(&mut game, Play::Buy(Copper)),
        "dominion-sexp.buy.no-buys"
    );
    let mut free = turn(&[], &[]);
    ok(&mut free, Play::Buy(Copper));
    assert_eq!(free.players[0].discard, [Copper]);
}

#[test]
fn buying_takes_the_first_occurrence_of_a_flat_supply() {
    let mut game = turn(&[], &[]);
    game.supply = Supply::from_cards(&[Copper, Gold, Copper, Mine]);
    ok(&mut game, Play::Buy(Copper));
    assert_eq!(game.supply.cards(), [Gold, Copper, Mine]);
}

#[test]
fn clean_requires_a_card_shown_from_a_non_empty_hand() {
    let mut game = turn(&[Copper, Estate], &[]);
    assert_eq!(
        id(&mut game, Play::Clean(None)),
        "dominion-sexp.clean.card-required"
    );
    assert_eq!(
        id(&mut game, Play::Clean(Some(Gold))),
        "dominion-sexp.clean.top-not-in-hand"
    );
    ok(&mut game, Play::Add(Copper));
    // A card already added is no longer in hand.
    assert_eq!(
        id(&mut game, Play::Clean(Some(Copper))),
        "dominion-sexp.clean.top-not-in-hand"
    );
    ok(&mut game, Play::Clean(Some(Estate)));
}

#[test]
fn an_empty_hand_takes_a_bare_clean_only() {
    let mut game = turn(&[Copper], &[]);
    ok(&mut game, Play::Add(Copper));
    assert_eq!(
        id(&mut game, Play::Clean(Some(Copper))),
        "dominion-sexp.clean.top-not-in-hand"
    );
    assert_eq!(ok(&mut game, Play::Clean(None)), Outcome::TurnOver);
}

#[test]
fn clean_up_discards_hand_then_plays_then_old_discards_and_draws_five() {
    let mut game = turn(
        &[Silver, Estate, Copper],
        &[Gold, Copper, Estate, Mine, Duchy, Province],
    );
    game.players[0].discard = vec![Duchy];
    ok(&mut game, Play::Add(Copper));
    ok(&mut game, Play::Add(Silver));
    assert_eq!(ok(&mut game, Play::Clean(Some(Estate))), Outcome::TurnOver);
    let alpha = &game.players[0];
    assert_eq!(alpha.discard, [Estate, Silver, Copper, Duchy]);
    // Drawn from the top (the end), each to the front: the last drawn first.
    assert_eq!(alpha.hand, [Copper, Estate, Mine, Duchy, Province]);
    assert_eq!(alpha.deck, [Gold]);
    assert_eq!(
        (game.current, game.actions, game.buys, game.coins),
        (1, 1, 1, 0)
    );
    assert!(game.play_area.is_empty());
    assert_eq!(alpha.turns, 1);
}

#[test]
fn a_short_deck_reshuffles_the_discards_including_the_ones_just_discarded() {
    let mut game = turn(&[Estate, Copper], &[Gold, Silver]);
    game.players[0].discard = vec![Duchy];
    ok(&mut game, Play::Clean(Some(Estate)));
    let alpha = &game.players[0];
    // Silver and gold from the deck, then three of the reshuffled
    // estate, copper and duchy (NoShuffle keeps their order: duchy on top).
    assert_eq!(alpha.hand.len(), 5);
    assert_eq!(&alpha.hand[3..], [Gold, Silver]);
    assert!(alpha.discard.is_empty());
    assert!(alpha.deck.is_empty());
    let mut hand = alpha.hand.clone();
    hand.sort();
    assert_eq!(hand, [Copper, Silver, Gold, Estate, Duchy]);
}

#[test]
fn with_too_few_cards_the_hand_stays_short() {
    let mut game = turn(&[Estate], &[Gold]);
    ok(&mut game, Play::Clean(Some(Estate)));
    assert_eq!(game.players[0].hand, [Estate, Gold]);
    assert!(game.players[0].deck.is_empty() && game.players[0].discard.is_empty());
}

#[test]
fn the_game_ends_only_after_the_clean_of_the_turn_that_took_the_last_province() {
    let mut game = turn(&[Estate], &[]);
    game.supply = Supply::from_piles(&[(Copper, 5), (Province, 1)]);
    game.coins = 8;
    ok(&mut game, Play::Buy(Province));
    assert_eq!(game.ended, None);
    assert_eq!(
        ok(&mut game, Play::Clean(Some(Estate))),
        Outcome::GameOver(Ending::ProvincesGone)
    );
    assert_eq!(game.ended, Some(Ending::ProvincesGone));
}

#[test]
fn other_empty_piles_do_not_end_the_game() {
    let mut game = turn(&[Estate], &[]);
    game.supply = Supply::from_piles(&[(Province, 1)]);
    assert_eq!(ok(&mut game, Play::Clean(Some(Estate))), Outcome::TurnOver);
    assert_eq!(game.ended, None);
}

#[test]
fn three_empty_piles_do_not_end_a_version_1_game() {
    // The line protocol's three-pile ending is not version 1's (D5).
    let mut game = turn(&[Estate], &[]);
    game.supply = Supply::from_piles(&[(Copper, 0), (Silver, 0), (Gold, 0), (Province, 1)]);
    assert_eq!(game.supply.empty_piles(), 3);
    assert_eq!(ok(&mut game, Play::Clean(Some(Estate))), Outcome::TurnOver);
    assert_eq!(game.ended, None);
}

#[test]
fn the_turn_cap_ends_the_game_after_every_seat_took_its_turns() {
    let mut rng = fastrand::Rng::with_seed(3);
    let mut game = DominionTable::v1(&["alpha", "bravo"], Supply::v1(2), &mut rng);
    game.turn_cap = 3;
    let mut outcomes = Vec::new();
    for _ in 0..6 {
        let shown = game.players[game.current].hand[0];
        outcomes.push(game.apply(Play::Clean(Some(shown)), &mut rng).unwrap());
    }
    assert_eq!(outcomes[..5], [Outcome::TurnOver; 5]);
    assert_eq!(outcomes[5], Outcome::GameOver(Ending::TurnCap));
    assert_eq!(
        game.players.iter().map(|s| s.turns).collect::<Vec<_>>(),
        [3, 3]
    );
    assert_eq!(DEFAULT_TURN_CAP, 100);
}

#[test]
fn scores_count_deck_hand_and_discards_and_ties_all_win() {
    let mut game = turn(&[Estate, Province], &[Duchy]);
    game.players[0].discard = vec![Estate];
    game.players[1].hand = vec![Province, Duchy, Estate, Copper];
    assert_eq!(game.scores(), [11, 10]);
    assert_eq!(game.winners(), [0]);
    game.players[1].deck = vec![Estate];
    assert_eq!(game.winners(), [0, 1]);
}

#[test]
fn a_tie_is_shared_even_when_one_seat_took_fewer_turns() {
    // D7: version 1 has no tie-break (the line protocol's fewer-turns rule
    // does not apply).
    let mut game = turn(&[Province], &[]);
    game.players[1].hand = vec![Province];
    game.players[0].turns = 5;
    game.players[1].turns = 4;
    assert_eq!(game.winners(), [0, 1]);
}

#[test]
fn stack_deck_puts_the_named_cards_on_top_in_order() {
    let mut game = turn(&[], &[Copper, Estate, Gold, Copper]);
    assert!(game.stack_deck(0, &[Gold, Copper]));
    assert_eq!(game.players[0].deck, [Estate, Copper, Copper, Gold]);
    assert!(!game.stack_deck(0, &[Province]));
    assert_eq!(game.players[0].deck, [Estate, Copper, Copper, Gold]);
}

fn every_v1_play() -> Vec<Play> {
    let mut all = Vec::new();
    for a in Card::V1 {
        all.push(Play::Add(a));
        all.push(Play::Buy(a));
        all.push(Play::Clean(Some(a)));
        for b in Card::V1 {
            all.push(Play::Mine { trash: a, gain: b });
        }
    }
    all.push(Play::Clean(None));
    all
}

fn cards_in_play(game: &DominionTable) -> usize {
    game.supply.cards().len()
        + game.trash.len()
        + game.play_area.len()
        + game
            .players
            .iter()
            .map(|s| s.deck.len() + s.hand.len() + s.discard.len())
            .sum::<usize>()
}

/// Random legal games at 2, 3 and 4 players: `legal_plays` is exactly the
/// set of plays `check` accepts, no card is created or lost, the current
/// player always has a play, and every game ends by the provinces or the cap.
#[test]
fn random_games_keep_the_invariants_and_end() {
    let mut by_provinces = 0;
    for seed in 0..12u64 {
        let players = 2 + (seed % 3) as usize;
        let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut game = DominionTable::v1(&names, Supply::v1(players), &mut rng);
        game.turn_cap = 60;
        let total = cards_in_play(&game);
        let mut plays = 0;
        let ending = loop {
            let legal = game.legal_plays();
            for p in every_v1_play() {
                assert_eq!(game.check(p).is_ok(), legal.contains(&p), "{p}");
            }
            assert!(!legal.is_empty());
            // Favour buying big so that games end by the provinces.
            let play = legal
                .iter()
                .copied()
                .max_by_key(|p| match p {
                    Play::Add(_) => 100,
                    Play::Buy(c) => 10 + c.cost() * (1 + rng.u32(0..3)),
                    Play::Mine { gain, .. } => 50 + gain.cost(),
                    Play::Clean(_) => rng.u32(0..10),
                })
                .unwrap();
            let outcome = game.apply(play, &mut rng).unwrap();
            plays += 1;
            assert_eq!(cards_in_play(&game), total, "seed {seed}");
            assert!(
                game.players[game.current].hand.len() <= 5 || !matches!(outcome, Outcome::TurnOver)
            );
            if let Outcome::GameOver(e) = outcome {
                break e;
            }
            assert!(plays < 100_000, "seed {seed}: no end");
        };
        match ending {
            Ending::ProvincesGone => {
                assert!(!game.supply.contains(Province));
                by_provinces += 1;
            }
            Ending::TurnCap => assert!(game.players.iter().all(|s| s.turns == 60)),
            Ending::ThreePilesEmpty => panic!("seed {seed}: version 1 has no three-pile ending"),
        }
        assert_eq!(
            game.players
                .iter()
                .map(SeatedPlayer::score)
                .collect::<Vec<_>>(),
            game.scores()
        );
    }
    assert!(
        by_provinces >= 6,
        "only {by_provinces} games ended by the provinces"
    );
}
