//! The command line as users meet it: the schema, lint errors with
//! file:line:col, exit statuses, listing, and replaying a saved failure.

use crate::common;
use assert_cmd::Command;
use common::*;
use predicates::prelude::*;

fn protocheck() -> Command {
    Command::cargo_bin("protocheck").unwrap()
}

#[test]
fn schema_is_the_committed_file_and_every_builtin_scenario_validates() {
    let out = protocheck().arg("schema").output().unwrap();
    assert!(out.status.success());
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/schema.json"
    ))
    .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), committed);
    let schema: serde_json::Value = serde_json::from_str(&committed).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut checked = 0;
    for (path, text) in protocheck::scenario::builtin::files() {
        let doc: serde_json::Value =
            serde_saphyr::from_str(text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{path} does not validate: {errors:#?}");
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} built-in scenarios");
}

#[test]
fn schema_rejects_what_the_loader_rejects() {
    let schema: serde_json::Value = serde_json::from_str(protocheck::scenario::SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for bad in [
        "name: x\nstpes: [close-input]\n",
        "name: x\nsteps: [{sned: hi}]\n",
        "name: x\nsteps: [{expect: silense}]\n",
        "name: x\noptions: {holez: 3}\nsteps: [close-input]\n",
    ] {
        let doc: serde_json::Value = serde_saphyr::from_str(bad).unwrap();
        assert!(!validator.is_valid(&doc), "schema accepts {bad:?}");
        assert!(
            protocheck::scenario::load::parse(bad, "t.yaml", Some("kalah")).is_err(),
            "loader accepts {bad:?}"
        );
    }
}

#[test]
fn the_schema_takes_only_the_named_games_options_as_the_loader_does() {
    let out = protocheck().arg("schema").output().unwrap();
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let valid = |text: &str| {
        let doc: serde_json::Value = serde_saphyr::from_str(text).unwrap();
        let loaded = protocheck::scenario::load::parse(text, "t.yaml", None);
        (
            validator.is_valid(&doc),
            loaded.map(|_| ()).map_err(|e| e.to_string()),
        )
    };
    let (schema_ok, loaded) =
        valid("name: x\ngame: kalah\noptions: { holes: 6, walls: 3 }\nsteps: [close-input]\n");
    assert!(
        !schema_ok,
        "the schema takes a Quoridor option in a Kalah file"
    );
    let err = loaded.unwrap_err();
    assert!(
        err.starts_with(
            "t.yaml:3:22: `walls` means nothing in kalah (it is one of the Quoridor options)"
        ),
        "{err}"
    );
    assert_eq!(
        valid(
            "name: x\ngame: quoridor\noptions: { walls: 3, timeout: 2s }\nsteps: [close-input]\n"
        ),
        (true, Ok(()))
    );
    let (schema_ok, loaded) = valid(
        "name: x\ngame: evolution\noptions: { seat: 2, swap: never }\nsteps: [close-input]\n",
    );
    assert!(!schema_ok && loaded.is_err(), "{loaded:?}");
}

#[test]
fn a_bad_duration_in_a_scenario_is_located_before_any_bot_runs() {
    let dir = tempdir();
    let file = dir.join("slow.yaml");
    std::fs::write(
        &file,
        "name: slow\ngame: kalah\noptions:\n  timeout: soon\nsteps:\n  - send: \"START;South\"\n",
    )
    .unwrap();
    let out = protocheck()
        .args(["--game", "kalah", "--scenarios"])
        .arg(&file)
        .arg(bot("kalah-correct"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{}:4:12: options.timeout: bad duration `soon`",
            file.display()
        )),
        "{stderr}"
    );
}

#[test]
fn every_builtin_scenario_lints_clean() {
    for game in protocheck::games::ids() {
        protocheck()
            .args(["lint", "--game", game])
            .assert()
            .success()
            .stdout(predicate::str::contains("no problems"));
    }
}

#[test]
fn lint_reports_file_line_column_and_exits_2() {
    let dir = tempdir();
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "name: sketch\ngame: kalah\nsteps:\n  - send: \"START;North\"\n  - expect: silence\n  - send: \"CHANGE;1;8,8,8,8,8,8,8,0,0,8,8,8,8,8,8,1;YOU\"\n").unwrap();
    let typo = dir.join("typo.yaml");
    std::fs::write(
        &typo,
        "name: typo\ngame: kalah\nsteps:\n  - sned: \"START;South\"\n",
    )
    .unwrap();
    let out = protocheck()
        .args(["lint", "--game", "kalah"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "{}:6:5: this CHANGE does not follow from the rules",
            bad.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("is 7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1, not 8,8,8,8,8,8,8,0,0,8,8,8,8,8,8,1"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}:4:5:", typo.display())) && err.contains("did you mean `send`?"),
        "{err}"
    );
    // Running a bot with an invalid scenario is exit 2 before the bot starts.
    let bot = bot("kalah-correct");
    protocheck()
        .args(["--game", "kalah", "--scenarios"])
        .arg(&bad)
        .arg(&bot)
        .assert()
        .code(2);
}

#[test]
fn usage_errors_are_exit_2() {
    protocheck()
        .args(["--game", "kalha", "./bot"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean `kalah`?"));
    protocheck()
        .args(["--game", "kalah"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no bot given"));
    protocheck()
        .args(["--game", "kalah", "--timeout", "soon", "./bot"])
        .assert()
        .code(2);
    protocheck()
        .args([
            "--game",
            "kalah",
            "--filter",
            "no-such-scenario-xyz",
            "./bot",
        ])
        .assert()
        .code(2);
    // An option the game does not take is one usage error, not one per
    // scenario that would inherit it.
    let out = protocheck()
        .args(["--game", "kalah", "--players", "3", "./bot"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--game kalah: Kalah is a two-player game"),
        "{stderr}"
    );
    protocheck()
        .args(["--game", "quoridor", "--holes", "6", "./bot"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Kalah options"));
}

#[test]
fn list_shows_the_selected_scenarios() {
    protocheck()
        .args([
            "--game",
            "kalah",
            "--list",
            "--filter",
            "north-opening",
            "--games",
            "2",
            "--seed",
            "3",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("north-opening-1")
                .and(predicate::str::contains("generated").not()),
        );
    protocheck()
        .args(["rules", "--game", "kalah"])
        .assert()
        .success()
        .stdout(predicate::str::contains("kalah.move.empty-hole"));
}

#[test]
fn a_failing_generated_game_is_saved_and_replays_the_same_failure() {
    let dir = tempdir();
    let bot = bot("kalah-ignores-swap");
    // South openings against a swapping opponent: generated game 1 (South, swaps).
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--filter",
            "generated-001",
            "--games",
            "1",
            "--seed",
            "9",
            "--save-failures",
            dir.to_str().unwrap(),
            &bot,
        ],
        &[],
    );
    assert_eq!(out.code, 1, "{:?}", out.rules());
    assert!(out.has_rule("kalah.move.empty-hole"));
    let saved = out.report["scenarios"][0]["saved_to"]
        .as_str()
        .expect("saved")
        .to_string();
    let replay = out.report["scenarios"][0]["replay"].as_str().unwrap();
    assert!(
        replay.contains("--scenarios") && replay.contains(&saved),
        "{replay}"
    );
    // The saved file is a valid scenario and reproduces the failure.
    protocheck()
        .args(["lint", "--game", "kalah", &saved])
        .assert()
        .success();
    let again = run_json(&["--game", "kalah", "--scenarios", &saved, &bot], &[]);
    assert_eq!(again.code, 1);
    assert_eq!(again.rules(), out.rules());
}

#[test]
fn fail_fast_skips_the_rest() {
    let bot = bot("kalah-crlf");
    let out = run_json(
        &["--game", "kalah", "--fail-fast", "--jobs", "1", &bot],
        &[],
    );
    assert_eq!(out.code, 1);
    let statuses = out.statuses();
    assert_eq!(
        statuses.iter().filter(|s| *s == "failed").count(),
        1,
        "{statuses:?}"
    );
    assert!(statuses.iter().any(|s| s == "skipped"));
}

#[test]
fn a_reader_that_goes_away_is_not_a_panic() {
    // `protocheck --list | head -1`: the reader closes the pipe before
    // protocheck writes (it is closed right after the spawn, long before
    // protocheck has loaded its scenarios). Writing must not panic, and the
    // exit status still says how the command went.
    let bin = assert_cmd::cargo::cargo_bin("protocheck");
    for args in [
        &["--game", "kalah", "some-bot", "--list"][..],
        &["rules", "--game", "quoridor"][..],
        &["schema"][..],
    ] {
        let mut child = std::process::Command::new(&bin)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

/// `--partition`: the shards of a suite list every selected scenario exactly
/// once, for both kinds; a shard with nothing in it passes (a CI matrix wider
/// than the suite), and a shard that does not exist is a usage error.
#[test]
fn partitions_split_the_suite_exactly() {
    let list = |extra: &[&str]| -> Vec<String> {
        let out = protocheck()
            .args(["--game", "quoridor", "--list", "./bot"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect()
    };
    let mut all = list(&[]);
    all.sort();
    for kind in ["count", "hash"] {
        let mut together = Vec::new();
        for k in 1..=4 {
            let shard = list(&["--partition", &format!("{kind}:{k}/4")]);
            assert!(!shard.is_empty() && shard.len() < all.len(), "{kind}:{k}/4");
            together.extend(shard);
        }
        together.sort();
        assert_eq!(together, all, "{kind}");
    }
    let out = protocheck()
        .args([
            "--game",
            "kalah",
            "--partition",
            "count:90/90",
            "--format",
            "json",
        ])
        .arg(bot("kalah-correct"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["partition"]["shard"], "count:90/90");
    assert_eq!(json["partition"]["of"], 43);
    assert_eq!(json["scenarios"].as_array().unwrap().len(), 0);
    protocheck()
        .args(["--game", "kalah", "--partition", "hash:5/4", "./bot"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("shard 5 of 4 does not exist"));
}
