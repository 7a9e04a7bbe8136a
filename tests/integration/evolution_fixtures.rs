//! The course's test-fest fixtures (`tests/fixtures/evolution/`, copied from
//! the project's shared oracle folder; see its README) run through the
//! Evolution rule engine: attackability, option enumeration and the
//! reference strategy's feeding choice, single feeding steps, whole step 4,
//! and the strategy's card choices.

use protocheck::games::evolution::action4::Action4;
use protocheck::games::evolution::engine::{Dealer, FeedOption, Player, attackable, options};
use protocheck::games::evolution::model::{
    Species, Trait, natural, parse_boards, parse_cards, parse_species,
};
use protocheck::games::evolution::strategy::{self, FatRequest};
use serde_json::Value;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/evolution")
        .join(name)
}

/// `(name, input, expected)` for every pair of a harness, sorted by name.
fn pairs(harness: &str) -> Vec<(String, Value, Value)> {
    let mut names: Vec<String> = std::fs::read_dir(dir(harness))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix("-in.json").map(str::to_string)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let read = |suffix: &str| -> Value {
                let path = dir(harness).join(format!("{n}-{suffix}.json"));
                let text = std::fs::read_to_string(&path).unwrap();
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
            };
            (n.clone(), read("in"), read("out"))
        })
        .collect()
}

/// The course's older Player: `[["id",n],["species",[…]],["bag",n]]`, with
/// an optional fourth `["cards",[…]]`.
fn player(v: &Value) -> Player {
    let entries = v.as_array().expect("a player is a list");
    let field = |i: usize, name: &str| -> &Value {
        let pair = entries[i].as_array().expect("a player entry is a pair");
        assert_eq!(pair[0], name);
        &pair[1]
    };
    Player {
        id: natural(field(0, "id")).unwrap(),
        boards: parse_boards(field(1, "species")).unwrap(),
        bag: natural(field(2, "bag")).unwrap() as u32,
        hand: if entries.len() > 3 {
            parse_cards(field(3, "cards")).unwrap()
        } else {
            Vec::new()
        },
    }
}

/// `[[Player…], wh, deck]`.
fn configuration(v: &Value) -> Dealer {
    let [players, wh, deck] = v.as_array().unwrap().as_slice() else {
        panic!("a configuration has three parts")
    };
    Dealer {
        players: players.as_array().unwrap().iter().map(player).collect(),
        watering_hole: natural(wh).unwrap() as u32,
        deck: parse_cards(deck).unwrap().into(),
    }
}

fn species_or_false(v: &Value) -> Option<Species> {
    (v != &Value::Bool(false)).then(|| parse_species(v).unwrap())
}

/// The dealer as the fixtures can show it: a fat store on a species that
/// lost fat-tissue (kept by the reference, §3.9) is not written out.
fn visible(mut d: Dealer) -> Dealer {
    for s in d.players.iter_mut().flat_map(|p| p.boards.iter_mut()) {
        if !s.has(Trait::FatTissue) {
            s.fat_food = 0;
        }
    }
    d
}

/// The reference strategy as the dealer's `ask`.
fn reference_choice(d: &Dealer, p: usize, _: &[FeedOption]) -> Option<FeedOption> {
    let others: Vec<&[Species]> = d
        .others(p)
        .into_iter()
        .map(|o| d.players[o].boards.as_slice())
        .collect();
    strategy::feed(&d.players[p].boards, &others, FatRequest::Room)
}

#[test]
fn xattack_all_pairs_agree_with_the_reference_predicate() {
    let pairs = pairs("xattack");
    assert_eq!(pairs.len(), 52);
    for (name, input, expected) in pairs {
        let [d, a, l, r] = input.as_array().unwrap().as_slice() else {
            panic!("{name}: input shape")
        };
        let (d, a) = (parse_species(d).unwrap(), parse_species(a).unwrap());
        let (l, r) = (species_or_false(l), species_or_false(r));
        assert_eq!(
            Value::Bool(attackable(&a, &d, l.as_ref(), r.as_ref())),
            expected,
            "{name}"
        );
    }
}

/// Fat-tissue answers from the older course strategy, which capped the
/// request at the watering hole (oracle README).
const OLDER_FAT_ANSWERS: [&str; 7] = [
    "1073-6112-3",
    "2657-7498-9",
    "3830-7214-6",
    "6118-3959-3",
    "9159-5803-3",
    "matthias-7",
    "matthias-8",
];

#[test]
fn xfeed_option_enumeration_and_strategy() {
    let pairs = pairs("xfeed");
    assert_eq!(pairs.len(), 111);
    let (mut none, mut one, mut many) = (0, 0, 0);
    let mut final_strategy_differs = Vec::new();
    for (name, input, expected) in &pairs {
        let [me, wh, rest] = input.as_array().unwrap().as_slice() else {
            panic!("{name}: input shape")
        };
        let me = player(me);
        let wh = natural(wh).unwrap() as u32;
        let rest: Vec<Player> = rest.as_array().unwrap().iter().map(player).collect();
        let others: Vec<&[Species]> = rest.iter().map(|p| p.boards.as_slice()).collect();
        let opts = options(&me.boards, &others);
        match opts.len() {
            0 => none += 1,
            1 => one += 1,
            _ => many += 1,
        }
        let as_json = |c: Option<FeedOption>| c.map_or(Value::Bool(false), FeedOption::to_json);
        // The expected answer is an option, or false exactly when there is none.
        if expected == &Value::Bool(false) {
            assert!(
                opts.is_empty(),
                "{name}: false expected but options {opts:?}"
            );
        } else {
            assert!(
                opts.iter().any(|o| as_json(Some(*o)) == *expected
                    || matches!(o, FeedOption::Fat { .. })
                        && expected.as_array().is_some_and(|e| e.len() == 2
                            && o.accepts(FeedOption::Fat {
                                species: e[0].as_u64().unwrap() as usize,
                                amount: e[1].as_u64().unwrap() as u32,
                            }))),
                "{name}: {expected} is not among {opts:?}"
            );
        }
        // The older strategy (fat capped at the watering hole) matches all.
        let older = strategy::feed(&me.boards, &others, FatRequest::CappedAt(wh));
        assert_eq!(as_json(older), *expected, "{name} (older strategy)");
        let final_ = strategy::feed(&me.boards, &others, FatRequest::Room);
        if as_json(final_) != *expected {
            final_strategy_differs.push(name.as_str());
        }
    }
    assert_eq!((none, one, many), (23, 29, 59));
    assert_eq!(final_strategy_differs, OLDER_FAT_ANSWERS);
}

#[test]
fn xstep_one_feeding_step_agrees_on_all_pairs() {
    let pairs = pairs("xstep");
    assert_eq!(pairs.len(), 123);
    for (name, input, expected) in pairs {
        let mut dealer = configuration(&input);
        let mut queue: VecDeque<u64> = dealer.players.iter().map(|p| p.id).collect();
        dealer.feed1(&mut queue, &mut reference_choice);
        assert_eq!(dealer, configuration(&expected), "{name}");
    }
}

#[test]
fn xstep4_card_actions_and_whole_feeding_cycle_agree_on_all_pairs() {
    let pairs = pairs("xstep4");
    assert_eq!(pairs.len(), 63);
    let mut actions_validated = 0;
    for (name, input, expected) in pairs {
        let [config, actions] = input.as_array().unwrap().as_slice() else {
            panic!("{name}: input shape")
        };
        let mut dealer = configuration(config);
        let actions: Vec<Action4> = actions
            .as_array()
            .unwrap()
            .iter()
            .map(|a| Action4::parse(a).unwrap_or_else(|f| panic!("{name}: {f:?}")))
            .collect();
        // A positive corpus for the validator: every Action4 is legal.
        for (p, a) in dealer.players.iter().zip(&actions) {
            a.validate(&p.boards, &p.hand)
                .unwrap_or_else(|f| panic!("{name}: player {}: {f:?}", p.id));
            actions_validated += 1;
        }
        dealer.apply_actions(&actions);
        dealer.feeding_cycle(&mut reference_choice);
        assert_eq!(visible(dealer), visible(configuration(&expected)), "{name}");
    }
    assert_eq!(actions_validated, 186);
}

#[test]
fn xsilly_the_reference_strategy_chooses_the_expected_legal_action() {
    let pairs = pairs("xsilly");
    assert_eq!(pairs.len(), 38);
    for (name, input, expected) in pairs {
        let me = player(&input[0]);
        let chosen = strategy::choose(&me.boards, &me.hand).expect("a non-empty hand");
        assert_eq!(chosen.to_json(), expected, "{name}");
        let parsed = Action4::parse(&expected).unwrap();
        assert_eq!(parsed.validate(&me.boards, &me.hand), Ok(()), "{name}");
    }
}
