//! The search on synthetic games: choices are numbers, and a "bot" fails
//! as a predicate says, so the minimum is known.

use super::*;

/// A toy game: protocheck's choices 0..10, every one legal; the "bot" fails
/// (rule `toy.seven`) at the first 7 played after a 3. Moves = choices made.
fn toy(plan: &Plan<u8>) -> Option<Failure<u8>> {
    let mut seen_three = false;
    for (i, &c) in plan.choices.iter().enumerate() {
        if c == 7 && seen_three {
            let played = plan.choices[..=i].to_vec();
            return Some(Failure {
                rule: "toy.seven".into(),
                size: i + 1,
                alternatives: vec![(0..10).collect(); played.len()],
                played: Plan {
                    frame: plan.frame,
                    choices: played,
                },
            });
        }
        seen_three |= c == 3;
    }
    None
}

/// A long failing game: the 3 and the 7 deep among noise.
fn long_game() -> Failure<u8> {
    let mut choices: Vec<u8> = (0..40).map(|i| [1, 2, 4, 5, 6, 8, 9][i % 7]).collect();
    choices[17] = 3;
    choices[36] = 7;
    toy(&Plan { frame: 0, choices }).expect("the long game fails")
}

fn never_out_of_time() -> impl FnMut() -> bool {
    || false
}

const SETTINGS: Settings = Settings {
    reruns: 3,
    frames: 1,
    alternatives: 10,
    replace_first: false,
};

#[test]
fn the_minimal_failing_game_is_found() {
    let original = long_game();
    assert_eq!(original.size, 37);
    let mut clock = never_out_of_time();
    let outcome = Search::new(SETTINGS, &mut clock, toy).run(original);
    let Outcome::Shrunk {
        original,
        best,
        complete,
        runs,
    } = outcome
    else {
        panic!("not shrunk: {outcome:?}");
    };
    assert_eq!(original, 37);
    assert_eq!(best.played.choices, vec![3, 7]);
    assert_eq!(best.size, 2);
    assert_eq!(best.rule, "toy.seven");
    assert!(complete);
    assert!(runs > 3, "{runs}");
}

#[test]
fn the_budget_is_respected_and_the_best_so_far_is_kept() {
    let mut asked = 0;
    let mut clock = || {
        asked += 1;
        asked > 12
    };
    let outcome = Search::new(SETTINGS, &mut clock, toy).run(long_game());
    let Outcome::Shrunk {
        best,
        runs,
        complete,
        ..
    } = outcome
    else {
        panic!("not shrunk: {outcome:?}");
    };
    assert_eq!(runs, 12, "one run per question answered `in time`");
    assert!(!complete);
    // What it kept still fails the toy game as it was played.
    assert_eq!(toy(&best.played).map(|f| f.size), Some(best.size));
    assert!(best.size <= 37);
}

#[test]
fn no_time_at_all_plays_nothing() {
    let mut clock = || true;
    let outcome = Search::new(SETTINGS, &mut clock, toy).run(long_game());
    assert_eq!(outcome, Outcome::NoTime { runs: 0 });
}

#[test]
fn an_original_that_does_not_fail_every_time_is_not_shrunk() {
    // Fails on every other run: the first replay of the original passes
    // or the second does; either way nothing is claimed.
    let mut calls = 0;
    let flaky = |plan: &Plan<u8>| {
        calls += 1;
        if calls % 2 == 0 { None } else { toy(plan) }
    };
    let mut clock = never_out_of_time();
    let outcome = Search::new(SETTINGS, &mut clock, flaky).run(long_game());
    assert!(
        matches!(outcome, Outcome::NotRepeatable { ref seen, .. } if seen == "toy.seven"),
        "{outcome:?}"
    );
}

#[test]
fn a_bot_that_fails_at_another_move_each_time_is_not_shrunk() {
    // Same rule, but the failure moves around: not the same game.
    let mut calls = 0;
    let wandering = |plan: &Plan<u8>| {
        calls += 1;
        toy(plan).map(|mut f| {
            f.size += calls % 3;
            f
        })
    };
    let mut clock = never_out_of_time();
    let outcome = Search::new(SETTINGS, &mut clock, wandering).run(long_game());
    assert!(
        matches!(outcome, Outcome::NotRepeatable { .. }),
        "{outcome:?}"
    );
}

#[test]
fn a_candidate_that_fails_only_sometimes_is_never_taken() {
    // The original fails every time; every shorter game fails on two runs
    // in three, never on three in a row.
    let original = long_game();
    let full = original.played.clone();
    let mut calls = 0;
    let flaky = |plan: &Plan<u8>| {
        if *plan == full {
            return toy(plan);
        }
        calls += 1;
        if calls % 3 == 0 { None } else { toy(plan) }
    };
    let mut clock = never_out_of_time();
    let outcome = Search::new(SETTINGS, &mut clock, flaky).run(original.clone());
    let Outcome::Shrunk { best, complete, .. } = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(best, original, "no false minimum");
    assert!(complete, "and the search ends: it does not loop");
}

#[test]
fn another_frame_is_taken_when_it_fails_sooner() {
    // Frame 1 fails at the first 7 alone (no 3 needed).
    let framed = |plan: &Plan<u8>| {
        if plan.frame == 1 {
            let at = plan.choices.iter().position(|&c| c == 7)?;
            let choices = plan.choices[..=at].to_vec();
            return Some(Failure {
                rule: "toy.seven".into(),
                size: at + 1,
                alternatives: vec![Vec::new(); choices.len()],
                played: Plan { frame: 1, choices },
            });
        }
        toy(plan)
    };
    let mut clock = never_out_of_time();
    let settings = Settings {
        reruns: 2,
        frames: 2,
        alternatives: 10,
        replace_first: false,
    };
    // An early 7, before the 3: harmless in frame 0.
    let mut original = long_game();
    original.played.choices[5] = 7;
    let original = toy(&original.played).unwrap();
    assert_eq!(original.size, 37);
    let Outcome::Shrunk { best, .. } = Search::new(settings, &mut clock, framed).run(original)
    else {
        panic!("not shrunk");
    };
    assert_eq!(
        best.played,
        Plan {
            frame: 1,
            choices: vec![7]
        }
    );
}

#[test]
fn replacing_first_tries_an_early_choice_before_any_deletion() {
    // The first candidate after the original's reruns is, with
    // `replace_first`, the first choice replaced (here by 0); by default a
    // deletion (the first half of the choices gone).
    let first_candidate = |replace_first: bool| {
        let settings = Settings {
            replace_first,
            ..SETTINGS
        };
        let mut tried: Vec<Plan<u8>> = Vec::new();
        let mut clock = never_out_of_time();
        Search::new(settings, &mut clock, |plan: &Plan<u8>| {
            tried.push(plan.clone());
            toy(plan)
        })
        .run(long_game());
        tried[SETTINGS.reruns].clone()
    };
    let original = long_game().played.choices;
    let replaced = first_candidate(true);
    assert_eq!(replaced.choices.len(), original.len());
    assert_eq!(replaced.choices[0], 0);
    assert_eq!(replaced.choices[1..], original[1..]);
    let deleted = first_candidate(false);
    assert_eq!(deleted.choices, original[original.len() / 2..]);
    // Either way the minimum is found.
    let mut clock = never_out_of_time();
    let settings = Settings {
        replace_first: true,
        ..SETTINGS
    };
    let Outcome::Shrunk { best, .. } = Search::new(settings, &mut clock, toy).run(long_game())
    else {
        panic!("not shrunk");
    };
    assert_eq!(best.size, 2);
}
