//! The real binary against every Evolution sample client (bots/examples/evo-*.rs):
//! the correct ones pass, each broken one fails with exactly the rule id its
//! file documents (bots/README.md), plus the TCP options (`--no-spawn`, a
//! port already taken), replay of a saved failing game, and a pinned report.

use crate::common;
use assert_cmd::Command;
use common::*;

/// Fail rules of the failing scenarios (the first fail of each), and every
/// warning rule.
fn verdicts(o: &Outcome) -> (Vec<String>, Vec<String>) {
    let mut fails = Vec::new();
    let mut warns = Vec::new();
    for s in o.report["scenarios"].as_array().into_iter().flatten() {
        let violations = s["violations"].as_array().cloned().unwrap_or_default();
        if let Some(v) = violations.iter().find(|v| v["severity"] == "fail") {
            fails.push(v["rule"].as_str().unwrap_or("").to_string());
        }
        for v in violations.iter().filter(|v| v["severity"] == "warn") {
            warns.push(v["rule"].as_str().unwrap_or("").to_string());
        }
    }
    (fails, warns)
}

fn evo(bot_name: &str, extra: &[&str]) -> Outcome {
    let bot = bot(bot_name);
    let mut args = vec!["--game", "evolution"];
    args.extend_from_slice(extra);
    args.push(&bot);
    run_json(&args, &[])
}

#[test]
fn the_correct_clients_pass_the_suite_and_generated_games_for_3_to_8_players() {
    for name in ["evo-correct", "evo-pretty-crlf"] {
        let o = evo(name, &["--games", "6", "--seed", "5"]);
        let (fails, warns) = verdicts(&o);
        assert_eq!(o.code, 0, "{name}: {fails:?} {}", o.messages());
        assert!(fails.is_empty());
        // Only the warning the reference client draws too.
        assert!(
            warns
                .iter()
                .all(|w| w == "evolution.feed.attack-rules-forbid"),
            "{name}: {warns:?}"
        );
        let generated: Vec<&str> = o.report["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["name"].as_str())
            .filter(|n| n.starts_with("generated-"))
            .collect();
        for players in 3..=8 {
            assert!(
                generated
                    .iter()
                    .any(|n| n.contains(&format!("-{players}p-"))),
                "{generated:?}"
            );
        }
    }
}

/// Each broken client, the scenarios that show its flaw (a `--filter`), and
/// the rule it must fail with.
const BROKEN: &[(&str, &str, &str)] = &[
    (
        "evo-undelimited-number",
        "two-hungry-vegetarians",
        "evolution.frame.undelimited-number",
    ),
    (
        "evo-tagged-growth",
        "minimal-hand-of-four",
        "evolution.choose.tagged-growth",
    ),
    (
        "evo-signup-object",
        "minimal-hand-of-four",
        "evolution.signup.not-a-string",
    ),
    (
        "evo-signup-bare-word",
        "minimal-hand-of-four",
        "evolution.frame.invalid-json",
    ),
    (
        "evo-byte-order-mark",
        "minimal-hand-of-four",
        "evolution.frame.non-json-whitespace",
    ),
    ("evo-latin1-name", "minimal-hand-of-four", "io.invalid-utf8"),
    (
        "evo-one-based-cards",
        "minimal-hand-of-four",
        "evolution.choose.card-out-of-range",
    ),
    (
        "evo-food-card-reused",
        "minimal-hand-of-four",
        "evolution.choose.card-reused",
    ),
    (
        "evo-new-board-off-by-one",
        "minimal-hand-of-four",
        "evolution.choose.board-out-of-range",
    ),
    (
        "evo-rt-appends",
        "fresh-board-has-no-traits",
        "evolution.choose.trait-position",
    ),
    (
        "evo-unchecked-traits",
        "same-trait-hand",
        "evolution.choose.duplicate-trait",
    ),
    (
        "evo-float-index",
        "minimal-hand-of-four",
        "evolution.value.not-natural",
    ),
    (
        "evo-acks-start",
        "start-then-silence",
        "evolution.choose.shape",
    ),
    (
        "evo-feeds-carnivore",
        "largest-hungry-is-carnivore",
        "evolution.feed.vegetarian-is-carnivore",
    ),
    (
        "evo-feeds-full",
        "largest-vegetarian-is-fed",
        "evolution.feed.not-hungry",
    ),
    (
        "evo-fat-ignores-store",
        "fat-tissue-partly-stored",
        "evolution.feed.fat-amount",
    ),
    (
        "evo-declines-attack",
        "only-carnivores-hungry",
        "evolution.feed.false-reply",
    ),
    (
        "evo-attacks-unchecked",
        "attack-climbing",
        "evolution.feed.target-not-attackable",
    ),
    (
        "evo-wraps-vegetarian",
        "two-hungry-vegetarians",
        "evolution.feed.shape",
    ),
    ("evo-closes-early", "whole-game-4p-seat1", "io.crash"),
    ("evo-exact-ok", "minimal-hand-of-four", "io.crash"),
    (
        "evo-reads-before-buffered",
        "whole-game-3p-seat1",
        "io.timeout",
    ),
];

#[test]
fn each_broken_client_fails_with_exactly_its_documented_rule() {
    for (name, filter, rule) in BROKEN {
        let o = evo(name, &["--filter", filter]);
        let (fails, _) = verdicts(&o);
        assert_eq!(o.code, 1, "{name}: {fails:?} {}", o.messages());
        assert!(
            !fails.is_empty() && fails.iter().all(|f| f == rule),
            "{name}: {fails:?}, want {rule}"
        );
    }
}

#[test]
fn a_client_that_takes_one_message_per_read_is_caught_every_time() {
    // `start` and `choose` go out in one write, so the client reads both at
    // once every time; when they were two writes, a client scheduled
    // between them read one at a time and passed (seen in CI, about 1 run
    // in 18).
    for i in 0..12 {
        let o = evo(
            "evo-reads-before-buffered",
            &["--filter", "whole-game-3p-seat1"],
        );
        let (fails, _) = verdicts(&o);
        assert_eq!(
            (o.code, fails),
            (1, vec!["io.timeout".to_string()]),
            "run {i}"
        );
    }
}

#[test]
fn the_broken_feeding_clients_fail_the_default_suite() {
    // Without a filter: the built-in scenarios set up every situation.
    for name in [
        "evo-declines-attack",
        "evo-fat-ignores-store",
        "evo-attacks-unchecked",
    ] {
        let o = evo(name, &[]);
        assert_eq!(o.code, 1, "{name}: {}", o.messages());
    }
}

#[test]
fn warning_clients_pass_unless_strict() {
    for (name, filter, rule) in [
        (
            "evo-signup-raw-tab",
            "minimal-hand-of-four",
            "evolution.frame.control-char-in-string",
        ),
        (
            "evo-connects-twice",
            "minimal-hand-of-four",
            "evolution.signup.extra-connection",
        ),
        ("evo-no-exit", "minimal-hand-of-four", "io.no-exit"),
    ] {
        let o = evo(name, &["--filter", filter]);
        let (fails, warns) = verdicts(&o);
        assert_eq!(o.code, 0, "{name}: {fails:?}");
        assert!(warns.iter().any(|w| w == rule), "{name}: {warns:?}");
        let strict = evo(name, &["--filter", filter, "--strict"]);
        assert_eq!(strict.code, 1, "{name} under --strict");
    }
}

#[test]
fn a_client_that_never_connects_or_never_signs_up() {
    let o = evo(
        "evo-dials-ipv6",
        &[
            "--filter",
            "minimal-hand-of-four",
            "--startup-timeout",
            "2s",
        ],
    );
    assert_eq!(o.code, 1);
    assert_eq!(verdicts(&o).0, vec!["io.no-connect"]);
    assert!(o.messages().contains("127.0.0.1"), "{}", o.messages());
    let o = evo(
        "evo-waits-for-server",
        &["--filter", "minimal-hand-of-four"],
    );
    assert_eq!(o.code, 1);
    assert_eq!(verdicts(&o).0, vec!["io.timeout"]);
}

#[test]
fn a_port_taken_by_another_program_is_exit_2_with_a_clear_message() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let o = evo(
        "evo-correct",
        &["--filter", "minimal-hand-of-four", "--port", &port],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("127.0.0.1:{port}")),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("--port"), "{}", o.stderr);
}

#[test]
fn a_fixed_port_runs_the_scenarios_one_after_another() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port().to_string();
    drop(free);
    let o = evo(
        "evo-correct",
        &["--filter", "whole-game-3p*", "--port", &port, "--jobs", "4"],
    );
    assert_eq!(o.code, 0, "{}", o.messages());
    assert_eq!(o.report["scenarios"].as_array().unwrap().len(), 3);
}

#[test]
fn no_spawn_waits_for_a_client_the_user_starts() {
    use std::io::BufRead;
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port().to_string();
    drop(free);
    let mut protocheck = std::process::Command::new(env!("CARGO_BIN_EXE_protocheck"))
        .args(["--game", "evolution", "--no-spawn", "--port", &port])
        .args(["--filter", "whole-game-4p-seat1", "--format", "json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The user starts the client once protocheck says where it listens.
    let mut stderr = std::io::BufReader::new(protocheck.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.contains(&format!("127.0.0.1:{port}")), "{line}");
    let client = std::process::Command::new(bot("evo-correct"))
        .env("PROTOCHECK_PORT", &port)
        .status()
        .unwrap();
    assert!(client.success());
    let out = protocheck.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_saved_failing_generated_game_replays_with_the_same_verdict() {
    let dir = std::env::temp_dir().join(marker("evolution-save"));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.display().to_string();
    let o = evo(
        "evo-wraps-vegetarian",
        &[
            "--filter",
            "generated-*",
            "--games",
            "3",
            "--seed",
            "11",
            "--save-failures",
            &save,
        ],
    );
    let (fails, _) = verdicts(&o);
    assert_eq!(o.code, 1, "{}", o.messages());
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), fails.len(), "{files:?}");
    for file in files {
        let replay = evo(
            "evo-wraps-vegetarian",
            &["--scenarios", &file.display().to_string()],
        );
        assert_eq!(replay.code, 1);
        assert_eq!(
            verdicts(&replay).0,
            vec!["evolution.feed.shape"],
            "{}",
            file.display()
        );
    }
}

#[test]
fn a_failing_report_is_pinned() {
    let bot = bot("evo-tagged-growth");
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args([
            "--game",
            "evolution",
            "--filter",
            "minimal-hand-of-four",
            "--color",
            "never",
            &bot,
        ])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout).replace(&bot, "<bot>");
    let mut text = text;
    for (pattern, with) in [
        (r" +\d+ms\b", " <t>ms"),
        (r"\d+ ms\b", "<t> ms"),
        (r"127\.0\.0\.1:\d+", "127.0.0.1:<port>"),
        (
            r"protocheck stopped the bot \([^)]*\)+",
            "protocheck stopped the bot (<how>)",
        ),
        (
            r"protocheck \d+\.\d+\.\d+(?: \([^)]*\))?",
            "protocheck <version>",
        ),
    ] {
        text = regex::Regex::new(pattern)
            .unwrap()
            .replace_all(&text, with)
            .into_owned();
    }
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("evolution-fail-human", text);
    });
}
