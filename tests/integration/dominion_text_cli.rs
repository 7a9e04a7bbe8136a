//! protocheck --game dominion-text against the sample bots (bots/
//! dominion-text/): the correct bot and the untidy-but-legal ones pass the
//! built-in suite and generated games at 2, 3 and 4 players in every seat;
//! the correct bot plays every kingdom card, reveals moats and discards to
//! militia; each broken bot fails with exactly the rule id its file
//! documents (warnings only under `--strict`); a failing generated game
//! saved with `--save-failures` replays to the same verdict; one failing
//! report is pinned as a snapshot.

use crate::common;
use assert_cmd::Command;
use common::*;
use std::collections::BTreeSet;

fn run(bot_name: &str, extra: &[&str]) -> Outcome {
    let bot = bot(bot_name);
    let mut args = vec!["--game", "dominion-text", "--exit-grace", "500ms"];
    args.extend_from_slice(extra);
    args.push(&bot);
    run_json(&args, &[])
}

/// Rule ids of the findings with this severity.
fn with_severity(out: &Outcome, severity: &str) -> BTreeSet<String> {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["violations"].as_array().cloned().unwrap_or_default())
        .filter(|v| v["severity"] == severity)
        .map(|v| v["rule"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Every line the bot wrote, over all scenarios of a run.
fn bot_lines(out: &Outcome) -> Vec<String> {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["transcript"].as_array().cloned().unwrap_or_default())
        .filter(|l| l["dir"] == "received")
        .map(|l| l["text"].as_str().unwrap_or("").to_string())
        .collect()
}

fn generated_names(out: &Outcome) -> Vec<String> {
    out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| s["name"].as_str().unwrap_or("").to_string())
        .filter(|n| n.starts_with("generated-"))
        .collect()
}

const KINGDOM: [&str; 10] = [
    "cellar",
    "market",
    "militia",
    "mine",
    "moat",
    "remodel",
    "smithy",
    "village",
    "woodcutter",
    "workshop",
];

#[test]
fn the_correct_bot_passes_the_suite_and_generated_games_without_a_finding() {
    let out = run("dtext-correct", &["--games", "9", "--seed", "3"]);
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    // Not even a warning: it is the bot the README's first run uses.
    assert!(out.rules().is_empty(), "{:?}", findings(&out.report));
    let statuses = out.statuses();
    assert!(statuses.iter().all(|s| s == "passed"), "{statuses:?}");
    assert_eq!(generated_names(&out).len(), 9);
    assert!(
        statuses.len() > 9,
        "the built-in suite ran too: {statuses:?}"
    );
}

#[test]
fn the_correct_bot_passes_every_player_count_and_seat() {
    for players in 2..=4 {
        for seat in 1..=players {
            let (players, seat) = (players.to_string(), seat.to_string());
            let out = run(
                "dtext-correct",
                &[
                    "--filter",
                    "generated-*",
                    "--games",
                    "1",
                    "--seed",
                    "8",
                    "--players",
                    &players,
                    "--seat",
                    &seat,
                ],
            );
            assert_eq!(
                out.code,
                0,
                "{players} players, seat {seat}: {:?}",
                out.rules()
            );
            assert!(
                out.rules().is_empty(),
                "{players} players, seat {seat}: {:?}",
                findings(&out.report)
            );
            let names = generated_names(&out);
            assert_eq!(names.len(), 1, "{names:?}");
            assert!(
                names[0].contains(&format!("{players}p-seat{seat}")),
                "{names:?}"
            );
        }
    }
}

#[test]
fn the_correct_bot_uses_every_kingdom_card_and_answers_attacks() {
    let out = run(
        "dtext-correct",
        &["--filter", "generated-*", "--games", "6", "--seed", "5"],
    );
    assert_eq!(out.code, 0, "{:?}", findings(&out.report));
    let lines = bot_lines(&out);
    let played: BTreeSet<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("play-reply action "))
        .filter_map(|rest| rest.split(' ').next())
        .collect();
    let bought: BTreeSet<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("play-reply buy "))
        .flat_map(|rest| rest.split(' '))
        .collect();
    for card in KINGDOM {
        assert!(played.contains(card), "{card} never played: {played:?}");
        assert!(bought.contains(card), "{card} never bought: {bought:?}");
    }
    assert!(lines.iter().any(|l| l == "play-reply reaction moat"));
    assert!(lines.iter().any(|l| l.starts_with("play-reply discard ")));
    // Both forms of the cards with optional arguments occur legally.
    assert!(lines.iter().any(|l| l == "play-reply action cellar"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("play-reply action cellar "))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("play-reply action mine "))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("play-reply action remodel "))
    );
}

#[test]
fn legal_but_untidy_bots_pass() {
    // Buying the first affordable entry (curses, then copper) is legal
    // (§9.2, D26): not even a warning.
    let out = run("dtext-first-affordable", &["--games", "6", "--seed", "4"]);
    assert_eq!(out.code, 0, "{:?}", findings(&out.report));
    assert!(out.rules().is_empty(), "{:?}", findings(&out.report));
    let lines = bot_lines(&out);
    assert!(lines.iter().any(|l| l == "play-reply buy curse"));
}

/// Broken bots whose one flaw is a failure: the default run plus generated
/// games finds that rule and no other failure.
const FAILING: &[(&str, &str)] = &[
    ("dtext-answers-info", "io.unexpected-output"),
    ("dtext-attack-crash", "io.crash"),
    ("dtext-attack-curses", "dominion-text.attack.not-in-hand"),
    ("dtext-attack-keeps-n", "dominion-text.attack.wrong-count"),
    ("dtext-attack-pass", "dominion-text.grammar.wrong-context"),
    ("dtext-capitalised", "dominion-text.grammar.case"),
    ("dtext-cellar-self", "dominion-text.cellar.no-valid-cards"),
    ("dtext-ignores-actions", "dominion-text.action.no-actions"),
    ("dtext-mine-to-gold", "dominion-text.mine.too-expensive"),
    ("dtext-moat-always", "dominion-text.attack.moat-not-in-hand"),
    (
        "dtext-plays-treasure",
        "dominion-text.action.not-action-card",
    ),
    ("dtext-plural-silver", "dominion-text.grammar.unknown-card"),
    (
        "dtext-remodel-estate-duchy",
        "dominion-text.remodel.too-expensive",
    ),
    ("dtext-version-two", "dominion-text.handshake.version-echo"),
    (
        "dtext-workshop-five",
        "dominion-text.workshop.too-expensive",
    ),
    (
        "dtext-workshop-wishlist",
        "dominion-text.grammar.extra-tokens",
    ),
];

/// Broken bots that never answer in time: a short deadline keeps the run
/// quick, and nothing else may be reported.
const TIMING_OUT: &[&str] = &["dtext-attack-silent", "dtext-no-flush"];

/// The one other verdict §1.3 allows for a flaw: a line answering an info
/// line that arrives after protocheck has written a request to the bot is
/// that request's (malformed) reply: "Either failure id is a correct
/// verdict." protocheck listens before each built-in turn, so this is rare.
const ALSO_CORRECT: &[(&str, &str)] =
    &[("dtext-answers-info", "dominion-text.grammar.not-a-reply")];

fn check_failing(bot_name: &str, rule: &str, extra: &[&str], wrong: &mut Vec<String>) {
    let mut args = vec!["--games", "9", "--seed", "3"];
    args.extend_from_slice(extra);
    let out = run(bot_name, &args);
    let fails = with_severity(&out, "fail");
    let allowed: BTreeSet<String> = ALSO_CORRECT
        .iter()
        .filter(|(b, _)| *b == bot_name)
        .map(|(_, r)| r.to_string())
        .chain([rule.to_string()])
        .collect();
    if out.code != 1 || !fails.contains(rule) || !fails.is_subset(&allowed) {
        wrong.push(format!(
            "{bot_name}: exit {}, failures {fails:?}, expected {rule} (allowed {allowed:?})\n{}",
            out.code,
            findings(&out.report).join("\n")
        ));
    }
}

#[test]
fn each_broken_bot_fails_with_exactly_its_documented_rule() {
    let mut wrong = Vec::new();
    for &(bot_name, rule) in FAILING {
        check_failing(bot_name, rule, &[], &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn silent_and_unflushed_bots_time_out() {
    let mut wrong = Vec::new();
    for &bot_name in TIMING_OUT {
        check_failing(
            bot_name,
            "io.timeout",
            &["--timeout", "1s", "--startup-timeout", "1s"],
            &mut wrong,
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    // The unflushed bytes arrive at exit: the report says to flush.
    let out = run(
        "dtext-no-flush",
        &[
            "--filter",
            "generated-*",
            "--games",
            "1",
            "--startup-timeout",
            "1s",
        ],
    );
    assert!(
        out.messages().to_lowercase().contains("flush"),
        "{}",
        out.messages()
    );
}

/// Bots whose flaw is only a warning: exit 0, exactly those rules reported,
/// and `--strict` makes the run fail on them.
const WARNING: &[(&str, &[&str])] = &[
    (
        "dtext-crlf-tabs",
        &["dominion-text.frame.crlf", "dominion-text.frame.whitespace"],
    ),
    (
        "dtext-name-without-seat",
        &["dominion-text.handshake.name-reply"],
    ),
    ("dtext-no-exit", &["io.no-exit"]),
    (
        "dtext-workshop-typo",
        &["dominion-text.grammar.workshop-typo"],
    ),
];

#[test]
fn each_warning_bot_passes_unless_strict() {
    for &(bot_name, rules) in WARNING {
        let expected: BTreeSet<String> = rules.iter().map(|r| r.to_string()).collect();
        let out = run(bot_name, &["--games", "3", "--seed", "3"]);
        assert_eq!(out.code, 0, "{bot_name}: {:?}", findings(&out.report));
        assert!(
            with_severity(&out, "fail").is_empty(),
            "{bot_name}: {:?}",
            findings(&out.report)
        );
        assert_eq!(with_severity(&out, "warn"), expected, "{bot_name}");
        let strict = run(bot_name, &["--games", "3", "--seed", "3", "--strict"]);
        assert_eq!(strict.code, 1, "{bot_name} under --strict");
        assert_eq!(
            with_severity(&strict, "fail"),
            expected,
            "{bot_name} under --strict"
        );
    }
}

#[test]
fn a_failing_generated_game_is_saved_and_replays_to_the_same_verdict() {
    let dir = tempdir();
    // Its flaw shows on the first attack request, at a point of the game
    // that depends on the deal and the built-in players.
    let bot = bot("dtext-attack-keeps-n");
    let out = run_json(
        &[
            "--game",
            "dominion-text",
            "--filter",
            "generated-*",
            "--games",
            "3",
            "--seed",
            "21",
            "--save-failures",
            dir.to_str().unwrap(),
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{:?}", out.rules());
    assert!(assert_saved_failures_replay("dominion-text", &bot, &out) >= 1);
}

#[test]
fn a_failing_report_is_pinned() {
    // A built-in scenario: the scripted hand `mine copper copper estate
    // estate`, then the whole game; every later mine of this bot fails the
    // same way, and the seeded deal makes the report the same every run.
    let bot = bot("dtext-mine-to-gold");
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args([
            "--game",
            "dominion-text",
            "--filter",
            "mine-coppers",
            "--jobs",
            "1",
            "--color",
            "never",
            &bot,
        ])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = human_report_for_snapshot(&out.stdout, &bot);
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("dominion-text-fail-human", text);
    });
}
