use super::*;
use proptest::prelude::*;

fn play(text: &str) -> Result<Play, &'static str> {
    let reply = read_one(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    classify(&reply.datum).map_err(|e| e.rule.id)
}

fn rule(text: &str) -> &'static str {
    play(text).expect_err(text)
}

#[test]
fn the_five_play_shapes() {
    assert_eq!(
        play("(act mine copper silver)"),
        Ok(Play::Mine {
            trash: Card::Copper,
            gain: Card::Silver
        })
    );
    assert_eq!(play("(add copper)"), Ok(Play::Add(Card::Copper)));
    assert_eq!(play("(buy province)"), Ok(Play::Buy(Card::Province)));
    assert_eq!(play("(buy mine)"), Ok(Play::Buy(Card::Mine)));
    assert_eq!(play("(clean)"), Ok(Play::Clean(None)));
    assert_eq!(play("(clean estate)"), Ok(Play::Clean(Some(Card::Estate))));
    assert_eq!(play("[  add\n\tgold ]"), Ok(Play::Add(Card::Gold)));
}

#[test]
fn step_1_not_a_list_headed_by_a_symbol() {
    for text in [
        "clean",
        "42",
        "\"add\"",
        "()",
        "'(add copper)",
        "(42 copper)",
        "((add) copper)",
        "(add . copper)",
    ] {
        assert_eq!(rule(text), "dominion-sexp.grammar.not-a-play", "{text}");
    }
}

#[test]
fn step_2_unknown_heads_and_case() {
    assert_eq!(rule("(pass)"), "dominion-sexp.grammar.not-a-play");
    assert_eq!(rule("(moved copper)"), "dominion-sexp.grammar.not-a-play");
    assert_eq!(rule("(Add copper)"), "dominion-sexp.grammar.case");
    assert_eq!(rule("(CLEAN)"), "dominion-sexp.grammar.case");
    assert_eq!(
        rule("(aCt mine copper silver)"),
        "dominion-sexp.grammar.case"
    );
}

#[test]
fn step_3_act_names_mine_with_two_treasures() {
    assert_eq!(rule("(act)"), "dominion-sexp.grammar.arity");
    assert_eq!(rule("(act smithy)"), "dominion-sexp.grammar.unknown-action");
    assert_eq!(rule("(act copper)"), "dominion-sexp.grammar.unknown-action");
    assert_eq!(
        rule("(act \"mine\" copper silver)"),
        "dominion-sexp.grammar.unknown-action"
    );
    assert_eq!(
        rule("(act Mine copper silver)"),
        "dominion-sexp.grammar.case"
    );
    assert_eq!(rule("(act mine)"), "dominion-sexp.grammar.arity");
    assert_eq!(rule("(act mine silver)"), "dominion-sexp.grammar.arity");
    assert_eq!(
        rule("(act mine copper silver gold)"),
        "dominion-sexp.grammar.arity"
    );
    // Arity comes before the card checks.
    assert_eq!(rule("(act mine platinum)"), "dominion-sexp.grammar.arity");
}

#[test]
fn step_4_element_counts() {
    assert_eq!(rule("(add)"), "dominion-sexp.grammar.arity");
    assert_eq!(rule("(add copper copper)"), "dominion-sexp.grammar.arity");
    assert_eq!(rule("(buy)"), "dominion-sexp.grammar.arity");
    assert_eq!(rule("(buy copper silver)"), "dominion-sexp.grammar.arity");
    assert_eq!(rule("(clean copper estate)"), "dominion-sexp.grammar.arity");
}

#[test]
fn step_5_card_slots() {
    assert_eq!(rule("(buy curse)"), "dominion-sexp.grammar.unknown-card");
    assert_eq!(rule("(buy smithy)"), "dominion-sexp.grammar.unknown-card");
    assert_eq!(rule("(buy platinum)"), "dominion-sexp.grammar.unknown-card");
    assert_eq!(
        rule("(add \"copper\")"),
        "dominion-sexp.grammar.unknown-card"
    );
    assert_eq!(rule("(add 1)"), "dominion-sexp.grammar.unknown-card");
    assert_eq!(
        rule("(clean (copper))"),
        "dominion-sexp.grammar.unknown-card"
    );
    assert_eq!(rule("(add Copper)"), "dominion-sexp.grammar.case");
    assert_eq!(rule("(buy PROVINCE)"), "dominion-sexp.grammar.case");
    assert_eq!(
        rule("(act mine copper SILVER)"),
        "dominion-sexp.grammar.case"
    );
    // An unknown card anywhere wins over a non-treasure elsewhere.
    assert_eq!(
        rule("(act mine estate platinum)"),
        "dominion-sexp.grammar.unknown-card"
    );
}

#[test]
fn step_6_treasure_slots() {
    assert_eq!(rule("(add estate)"), "dominion-sexp.grammar.not-treasure");
    assert_eq!(rule("(add mine)"), "dominion-sexp.grammar.not-treasure");
    assert_eq!(
        rule("(act mine estate silver)"),
        "dominion-sexp.grammar.not-treasure"
    );
    assert_eq!(
        rule("(act mine silver duchy)"),
        "dominion-sexp.grammar.not-treasure"
    );
    // buy and clean take any card.
    assert!(play("(buy estate)").is_ok());
    assert!(play("(clean province)").is_ok());
}

#[test]
fn plays_print_canonically() {
    for text in [
        "(act mine silver gold)",
        "(add copper)",
        "(buy duchy)",
        "(clean)",
        "(clean mine)",
    ] {
        assert_eq!(play(text).unwrap().to_string(), text);
    }
    assert_eq!(
        play("{ clean\n mine }").unwrap().to_string(),
        "(clean mine)"
    );
}

#[test]
fn cards_have_the_documented_costs_values_and_points() {
    let table: Vec<(Card, u32, u32, i32, bool)> = Card::V1
        .iter()
        .map(|&c| (c, c.cost(), c.value(), c.victory_points(), c.is_treasure()))
        .collect();
    assert_eq!(
        table,
        vec![
            (Card::Copper, 0, 1, 0, true),
            (Card::Silver, 3, 2, 0, true),
            (Card::Gold, 6, 3, 0, true),
            (Card::Estate, 2, 0, 1, false),
            (Card::Duchy, 5, 0, 3, false),
            (Card::Province, 8, 0, 6, false),
            (Card::Mine, 5, 0, 0, false),
        ]
    );
    assert_eq!(Card::v1_from_name("smithy"), None);
    assert_eq!(Card::from_name("smithy"), Some(Card::Smithy));
    assert_eq!(Card::from_name("Copper"), None);
    // The shared model knows the curse; version-1 states never hold it.
    assert_eq!(Card::from_name("curse"), None);
}

const STATE: &str = "(move ((players alpha bravo) (supply copper silver gold estate duchy province mine) (trash) (actions 1) (buys 1) (coins 0) (deck copper copper copper copper estate) (hand copper estate copper copper estate) (plays) (discards)))";

#[test]
fn notifications_parse_and_print_back_to_the_same_bytes() {
    let n = Notification::parse(STATE).unwrap();
    let Notification::Move(state) = &n else {
        panic!("not a move");
    };
    assert_eq!(state.players, ["alpha", "bravo"]);
    assert_eq!(state.hand.len(), 5);
    assert_eq!(state.actions, 1);
    assert_eq!(n.to_string(), STATE);
    let moved = "(moved 0-player-v1 (act mine copper silver))";
    assert_eq!(Notification::parse(moved).unwrap().to_string(), moved);
    // Whitespace-padded notifications (D13) read the same.
    let padded = STATE.replace(' ', "  \n\t");
    assert_eq!(Notification::parse(&padded).unwrap(), n);
}

#[test]
fn malformed_notifications_are_refused() {
    for text in [
        "(move)",
        "(move ((players a)))",
        "(moved a)",
        "(moved a (pass))",
        "(hello)",
        &STATE.replace("(coins 0)", "(coins x)"),
        &STATE.replace("(hand copper", "(hand copperx"),
        &STATE.replace("(trash)", "(rubbish)"),
    ] {
        assert!(Notification::parse(text).is_err(), "{text}");
    }
}

fn any_play() -> impl Strategy<Value = Play> {
    let card = proptest::sample::select(Card::V1.to_vec());
    let treasure = proptest::sample::select(vec![Card::Copper, Card::Silver, Card::Gold]);
    prop_oneof![
        (treasure.clone(), treasure.clone()).prop_map(|(trash, gain)| Play::Mine { trash, gain }),
        treasure.prop_map(Play::Add),
        card.clone().prop_map(Play::Buy),
        proptest::option::of(card).prop_map(Play::Clean),
    ]
}

proptest! {
    #[test]
    fn every_play_prints_and_parses_back(p in any_play(), pad in "[ \t\n]{0,3}") {
        let text = p.to_string();
        prop_assert_eq!(play(&text), Ok(p));
        let padded = text.replace(' ', &format!(" {pad}")).replace('(', &format!("{pad}({pad}"));
        prop_assert_eq!(play(&padded), Ok(p));
    }
}
