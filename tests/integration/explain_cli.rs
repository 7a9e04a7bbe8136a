//! `protocheck explain <rule-id>` through the real binary: a known id, a
//! near miss (exit 2 with a did-you-mean), an id without its game prefix, a
//! shared `io.*` id (every game's version, or one with `--game`), the
//! scenarios listed, JSON; and the explain line that ends each finding of
//! the human report. The text output is pinned for one rule of each game and
//! for the did-you-mean error (`snapshots/explain-*.snap`).

use crate::common;
use assert_cmd::Command;
use common::*;

fn explain(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .arg("explain")
        .args(args)
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

macro_rules! pin {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

#[test]
fn a_known_rule_is_explained_with_its_exchanges_and_scenarios() {
    let (code, out, err) = explain(&["kalah.swap.not-allowed"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("kalah.swap.not-allowed  (game: kalah, severity: fail)"),
        "{out}"
    );
    for part in [
        "spec:",
        "why:",
        "docs/games/kalah.md, decision",
        "wrong:",
        "right:",
        "  < SWAP",
    ] {
        assert!(out.contains(part), "no `{part}` in:\n{out}");
    }
    // Computed from the `rules:` of the built-in scenarios.
    assert!(out.contains("  kalah/01-south-first-move.yaml"), "{out}");
    assert!(
        out.contains("  kalah/10-no-swap-on-extra-turn.yaml"),
        "{out}"
    );
    assert!(!out.contains("kalah/16-opponent-lap-capture.yaml"), "{out}");
    pin!("explain-kalah-swap-not-allowed", out);
}

#[test]
fn one_rule_of_each_other_game_is_pinned() {
    for (id, name) in [
        (
            "quoridor.playwall.anchor",
            "explain-quoridor-playwall-anchor",
        ),
        (
            "dominion-sexp.clean.card-required",
            "explain-dominion-sexp-clean-card-required",
        ),
        (
            "evolution.feed.false-reply",
            "explain-evolution-feed-false-reply",
        ),
        (
            "dominion-text.grammar.workshop-typo",
            "explain-dominion-text-grammar-workshop-typo",
        ),
    ] {
        let (code, out, err) = explain(&[id]);
        assert_eq!(code, 0, "{id}: {err}");
        assert!(out.starts_with(id), "{out}");
        pin!(name, out);
    }
}

#[test]
fn a_near_miss_exits_2_with_the_closest_ids() {
    let (code, out, err) = explain(&["kalah.move.empty"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("did you mean `kalah.move.empty-hole`"),
        "{err}"
    );
    pin!("explain-unknown-did-you-mean", err);
    let (code, _, err) = explain(&["nothing.like.any.rule.at.all"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown rule id"), "{err}");
    assert!(!err.contains("did you mean"), "{err}");
}

#[test]
fn an_id_without_its_game_prefix_is_found_when_unique() {
    let (code, out, err) = explain(&["move.empty-hole"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("kalah.move.empty-hole  (game: kalah"),
        "{out}"
    );
    // `grammar.unknown-card` is a rule of both Dominion protocols.
    let (code, _, err) = explain(&["grammar.unknown-card"]);
    assert_eq!(code, 2);
    assert!(err.contains("ambiguous"), "{err}");
    assert!(
        err.contains("`dominion-sexp.grammar.unknown-card`"),
        "{err}"
    );
    assert!(
        err.contains("`dominion-text.grammar.unknown-card`"),
        "{err}"
    );
    let (code, out, err) = explain(&["grammar.unknown-card", "--game", "dominion-text"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("dominion-text.grammar.unknown-card"),
        "{out}"
    );
}

#[test]
fn a_shared_io_rule_shows_each_games_version_or_the_one_asked_for() {
    let (code, out, err) = explain(&["io.timeout"]);
    assert_eq!(code, 0, "{err}");
    for game in protocheck::games::ids() {
        assert!(
            out.contains(&format!("io.timeout  (game: {game}, severity: fail)")),
            "no {game} block in:\n{out}"
        );
    }
    // The games weigh it differently: quoridor's io.unexpected-output warns.
    let (code, out, err) = explain(&["io.unexpected-output", "--game", "quoridor"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.matches("io.unexpected-output  (game:").count(),
        1,
        "{out}"
    );
    assert!(out.contains("(game: quoridor, severity: warn)"), "{out}");
    let (code, _, err) = explain(&["kalah.move.empty-hole", "--game", "quoridor"]);
    assert_eq!(code, 2);
    assert!(err.contains("it is a rule of kalah"), "{err}");
    let (code, _, err) = explain(&["io.timeout", "--game", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown game `chess`"), "{err}");
}

/// The harness rules (protocheck's own bounds, a scenario's expectations)
/// are rules of every game: Evolution's catalogue once lacked the output and
/// resource bounds, so `explain` said they were not rules of evolution
/// although its runs report them.
#[test]
fn harness_rules_are_explained_in_every_game() {
    for game in protocheck::games::ids() {
        for id in [
            "io.output-flood",
            "io.output-limit",
            "io.resource-limit",
            "scenario.expect.reply",
            "scenario.expect.matches",
        ] {
            let (code, out, err) = explain(&[id, "--game", game]);
            assert_eq!(code, 0, "{id} --game {game}: {err}");
            assert!(
                out.starts_with(&format!("{id}  (game: {game}, severity: fail)")),
                "{out}"
            );
            assert!(out.contains("why:"), "{out}");
        }
    }
    let (code, out, err) = explain(&["io.output-flood", "--game", "evolution"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("10,000 lines"), "{out}");
}

#[test]
fn json_has_one_object_per_game_with_the_exchanges() {
    let (code, out, err) = explain(&["io.crash", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let items = v.as_array().unwrap();
    assert!(items.len() >= 4, "{out}");
    let kalah = items.iter().find(|i| i["game"] == "kalah").unwrap();
    assert_eq!(kalah["rule"], "io.crash");
    assert_eq!(kalah["severity"], "fail");
    assert_eq!(kalah["wrong"][0]["dir"], "sent");
    assert_eq!(kalah["wrong"][0]["text"], "START;South");
    assert!(
        kalah["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s.as_str().unwrap().starts_with("kalah/"))
    );
}

#[test]
fn the_human_report_ends_each_finding_with_its_explain_line() {
    let run = |bot_name: &str| {
        let out = Command::cargo_bin("protocheck")
            .unwrap()
            .args(["--game", "kalah", "--filter", "south-first-move"])
            .args(["--jobs", "1", "--color", "never", &bot(bot_name)])
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // A shared io.* id names the game whose version applies.
    let text = run("kalah-exits-early");
    assert!(text.contains("io.crash [fail]"), "{text}");
    assert!(
        text.contains("    explain: protocheck explain io.crash --game kalah\n"),
        "{text}"
    );
    // Warnings get the line too.
    let text = run("kalah-plus-sign");
    assert!(text.contains("kalah.move.number-format [warn]"), "{text}");
    assert!(
        text.contains("    explain: protocheck explain kalah.move.number-format\n"),
        "{text}"
    );
    // And the line it prints works.
    let (code, out, _) = explain(&["io.crash", "--game", "kalah"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("io.crash  (game: kalah, severity: fail)"),
        "{out}"
    );
}
