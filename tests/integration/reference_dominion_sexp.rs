//! protocheck against Matthew Flatt's own Dominion v1 players: a verdict that
//! fails a reference player is a wrong verdict (dominion-sexp.md truth
//! order; issue 10: "the references must pass").
//!
//! The players are not part of the repository (the `samolds/dominion`
//! repository has no licence). Set `PROTOCHECK_REFERENCE_BOTS` to a folder
//! holding, under `dominion-sexp/`, the players built with
//! `raco exe -o <dir>/dominion-sexp/<name> <name>.rkt` from its
//! `matthewflatserver/` folder: `player-v1`, `player-v2-random`,
//! `player-v3-soldier` (each must pass: no failure, warnings allowed). Where
//! only `<name>.rkt` is there, it is run as `racket <name>.rkt`. Optionally
//! `dumb-player` (the course stub that always answers `(clean copper)`): it
//! must fail, and only with `dominion-sexp.clean.top-not-in-hand` (rules
//! §9.2: a hand without copper exposes it). Without the variable the test
//! says so and passes.
//!
//! Each player plays the default run (the built-in suite, default options and
//! deadlines) plus twelve generated games, which put it in every seat of 2, 3
//! and 4 players.

use crate::common;
use assert_cmd::Command;
use common::json_outcome;
use serde_json::Value;
use std::path::{Path, PathBuf};

const VARIABLE: &str = "PROTOCHECK_REFERENCE_BOTS";
const PLAYERS: &[&str] = &["player-v1", "player-v2-random", "player-v3-soldier"];
const STUB: &str = "dumb-player";
const GAMES: usize = 12;

/// The findings of a JSON report, one line each, for assertion messages.
fn findings(report: &Value) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for s in report["scenarios"].as_array().into_iter().flatten() {
        for v in s["violations"].as_array().into_iter().flatten() {
            found.push((
                s["name"].as_str().unwrap_or("?").to_string(),
                v["severity"].as_str().unwrap_or("?").to_string(),
                format!(
                    "{}: {}",
                    v["rule"].as_str().unwrap_or("?"),
                    v["message"].as_str().unwrap_or("")
                ),
            ));
        }
    }
    found
}

fn describe(found: &[(String, String, String)]) -> String {
    found
        .iter()
        .map(|(scenario, severity, text)| format!("  {scenario} [{severity}] {text}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The command that runs a player: the executable, or `racket <name>.rkt`.
fn player_command(dir: &Path, name: &str) -> Option<String> {
    let exe: PathBuf = dir.join("dominion-sexp").join(name);
    if exe.is_file() {
        return Some(shell_words::quote(&exe.display().to_string()).into_owned());
    }
    let source = dir.join("dominion-sexp").join(format!("{name}.rkt"));
    source.is_file().then(|| {
        format!(
            "racket {}",
            shell_words::quote(&source.display().to_string())
        )
    })
}

fn run_player(command: &str) -> (i32, Value, String) {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .args([
            "--game",
            "dominion-sexp",
            "--bot-cmd",
            command,
            "--games",
            &GAMES.to_string(),
            "--seed",
            "1",
            "--format",
            "json",
            "--color",
            "never",
        ])
        // Generous: the suite and twelve games of a Racket player, each
        // process starting in about a second.
        .timeout(std::time::Duration::from_secs(900))
        .output()
        .unwrap();
    json_outcome(&out)
}

#[test]
fn reference_players_pass_the_default_run_and_generated_games() {
    let Some(dir) = std::env::var_os(VARIABLE) else {
        println!("reference players not run: {VARIABLE} is not set");
        return;
    };
    let dir = Path::new(&dir);
    let mut ran = 0;
    for &name in PLAYERS {
        let Some(command) = player_command(dir, name) else {
            println!(
                "{name}: not in {}, not run",
                dir.join("dominion-sexp").display()
            );
            continue;
        };
        ran += 1;
        let (code, report, stderr) = run_player(&command);
        let totals = &report["totals"];
        let found = findings(&report);
        println!("{name}: exit {code}, totals {totals}");
        println!("{}", describe(&found));
        assert!(
            report.is_object(),
            "{name}: no JSON report (exit {code}):\n{stderr}"
        );
        assert_eq!(
            totals["failed"],
            0,
            "{name} fails the default run:\n{}\n{stderr}",
            describe(&found)
        );
        assert_eq!(totals["errors"], 0, "{name}: {stderr}");
        assert_eq!(code, 0, "{name}: {stderr}");
        // The generated games at least, and the suite: something ran.
        let passed = totals["passed"].as_u64().unwrap_or(0);
        assert!(
            passed > GAMES as u64,
            "{name}: only {passed} scenarios passed, expected the suite and {GAMES} games"
        );
    }
    assert!(
        ran > 0,
        "{VARIABLE} is set to {}, but none of {PLAYERS:?} is in its dominion-sexp/",
        dir.display()
    );
}

/// The course stub is not a reference player: protocheck must catch it, and
/// for the one thing it does wrong only.
#[test]
fn the_course_stub_fails_only_for_its_fixed_clean_up() {
    let Some(dir) = std::env::var_os(VARIABLE) else {
        println!("{STUB} not run: {VARIABLE} is not set");
        return;
    };
    let Some(command) = player_command(Path::new(&dir), STUB) else {
        println!("{STUB}: not there, not run");
        return;
    };
    let (code, report, stderr) = run_player(&command);
    let found = findings(&report);
    println!("{STUB}: exit {code}, totals {}", report["totals"]);
    println!("{}", describe(&found));
    assert_eq!(code, 1, "{STUB}: {stderr}");
    let failures: Vec<_> = found.iter().filter(|f| f.1 == "fail").collect();
    assert!(
        !failures.is_empty(),
        "{STUB} passed: no scenario shows it a hand without copper"
    );
    for (scenario, _, text) in failures {
        assert!(
            text.starts_with("dominion-sexp.clean.top-not-in-hand:"),
            "{STUB} in {scenario}: {text}"
        );
    }
}
