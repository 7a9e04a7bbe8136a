//! protocheck against the course's own Evolution client: a verdict that
//! fails the reference client is a wrong verdict (evolution.md truth order).
//!
//! The client is not part of the repository. Set `PROTOCHECK_REFERENCE_BOTS`
//! to a folder holding `evolution/reference-client`: an executable launcher
//! that starts one reference client (`mfelleisen/Evolution`, `Xternal/client.rkt`,
//! sign-up `"good guy"`) dialling 127.0.0.1 on the port given as
//! `PROTOCHECK_PORT` (or `--port <n>`). A launcher that works with Racket
//! 8.x (install the package `unstable-contract-lib`, then
//! `raco make Xternal/client.rkt` once; uncompiled it takes about 10 s to
//! start):
//!
//! ```sh
//! #!/bin/sh
//! exec racket -e '(require (file "/path/to/Evolution/Xternal/client.rkt"))' \
//!   -e "(main 0 \"127.0.0.1\" ${PROTOCHECK_PORT})"
//! ```
//!
//! (`./client.rkt 0 127.0.0.1 PORT` does not work: it passes the port on as a
//! string; evolution.md §9.0.) Without the variable the test says so and
//! passes.
//!
//! Keep the launcher in the client's own folder (`Evolution/run-client`;
//! `evolution/reference-client` may be a symbolic link to it), and install
//! `unstable-contract-lib` with `raco pkg install --scope user --copy`: the
//! sandbox lets a bot read its own folder (the folder its program is in,
//! through a link too) and the user's Racket packages, not a path named
//! only inside a Racket expression (docs/sandbox.md).
//!
//! The client must pass (no failure; warnings allowed, e.g.
//! `evolution.feed.attack-rules-forbid`, because it plays the reference's
//! attack test) the default run plus generated games, and one generated game
//! for every player count from 3 to 8. Scenarios run one at a time
//! (`--jobs 1`): each starts a Racket process, and the protocol's 1 s reply
//! limit is kept, so parallel start-ups on a small machine must not eat into
//! it. The start-up limit is raised to 60 s for the same reason.

use crate::common;
use assert_cmd::Command;
use common::{findings, json_outcome};
use serde_json::Value;
use std::path::Path;

const VARIABLE: &str = "PROTOCHECK_REFERENCE_BOTS";
const LAUNCHER: &str = "evolution/reference-client";

/// Runs protocheck on the launcher with `extra` options; exit code, JSON
/// report, stderr.
fn run_reference(launcher: &Path, extra: &[&str]) -> (i32, Value, String) {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .args(["--game", "evolution"])
        .arg(launcher)
        .args([
            "--jobs",
            "1",
            "--startup-timeout",
            "60s",
            "--format",
            "json",
            "--color",
            "never",
        ])
        .args(extra)
        // Generous: a few dozen scenarios, each starting a Racket process.
        .timeout(std::time::Duration::from_secs(1800))
        .output()
        .unwrap();
    json_outcome(&out)
}

/// Asserts that a run passed (warnings allowed) and ran at least `min_passed`
/// scenarios.
fn assert_passed(what: &str, (code, report, stderr): (i32, Value, String), min_passed: u64) {
    let totals = &report["totals"];
    let found = findings(&report);
    println!("{what}: exit {code}, totals {totals}");
    for line in &found {
        println!("  {line}");
    }
    assert!(
        report.is_object(),
        "{what}: no JSON report (exit {code}):\n{stderr}"
    );
    assert_eq!(
        totals["failed"],
        0,
        "{what}: the reference client fails:\n{}\n{stderr}",
        found.join("\n")
    );
    assert_eq!(totals["errors"], 0, "{what}: {stderr}");
    assert_eq!(code, 0, "{what}: {stderr}");
    let passed = totals["passed"].as_u64().unwrap_or(0);
    assert!(
        passed >= min_passed,
        "{what}: only {passed} scenarios passed (expected at least {min_passed}); totals {totals}"
    );
}

#[test]
fn reference_client_passes_the_default_run_and_generated_games() {
    let Some(dir) = std::env::var_os(VARIABLE) else {
        println!("reference bots not run: {VARIABLE} is not set");
        return;
    };
    let launcher = Path::new(&dir).join(LAUNCHER);
    assert!(
        launcher.is_file(),
        "{VARIABLE} is set to {}, but {LAUNCHER} is not there",
        Path::new(&dir).display()
    );
    // The built-in suite and six generated games (seats and player counts
    // varied by protocheck).
    assert_passed(
        "default run + 6 generated games",
        run_reference(&launcher, &["--games", "6", "--seed", "1"]),
        7,
    );
    // One generated game for every player count the protocol allows.
    for players in 3..=8u32 {
        let seed = (100 + players).to_string();
        let players_arg = players.to_string();
        assert_passed(
            &format!("generated game, {players} players"),
            run_reference(
                &launcher,
                &[
                    "--players",
                    &players_arg,
                    "--games",
                    "1",
                    "--seed",
                    &seed,
                    "--filter",
                    "generated-*",
                ],
            ),
            1,
        );
    }
}

/// Three reference clients at one `protocheck match` table, seats rotating
/// over three games, one game with two more built-in players: every game
/// is played to its end and no client has a failing finding (warnings
/// allowed, as above).
#[test]
fn three_reference_clients_play_a_match_with_no_failing_finding() {
    let Some(dir) = std::env::var_os(VARIABLE) else {
        println!("reference match not run: {VARIABLE} is not set");
        return;
    };
    let launcher = Path::new(&dir).join(LAUNCHER);
    assert!(
        launcher.is_file(),
        "{VARIABLE} is set to {}, but {LAUNCHER} is not there",
        Path::new(&dir).display()
    );
    for extra in [&["--games", "3"][..], &["--players", "5"][..]] {
        let out = Command::cargo_bin("protocheck")
            .unwrap()
            .args(["match", "--game", "evolution"])
            .args([&launcher, &launcher, &launcher])
            .args(["--format", "json"])
            .args(extra)
            .timeout(std::time::Duration::from_secs(600))
            .output()
            .unwrap();
        let (code, report, stderr) = json_outcome(&out);
        assert_eq!(code, 0, "{extra:?}: {report:#}\n{stderr}");
        for game in report["games"].as_array().expect("games") {
            assert_eq!(game["outcome"], "finished", "{extra:?}: {game:#}");
            for f in game["findings"].as_array().into_iter().flatten() {
                assert_eq!(f["severity"], "warn", "{extra:?}: {f:#}");
            }
        }
        for b in report["bots"].as_array().expect("bots") {
            assert_eq!(b["verdict"], "passed", "{extra:?}: {b:#}");
        }
    }
}
