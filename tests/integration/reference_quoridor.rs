//! protocheck against the course's reference QTP engine, `naive_player`
//! (naive 1.1.47.beta): the default run (built-in suite plus generated games)
//! must report no failure, since where the reference engine and protocheck
//! disagree, the reference wins (quoridor.md §7, truth order).
//!
//! The engine is not part of this repository. Set
//! `PROTOCHECK_REFERENCE_BOTS=<dir>` to a folder holding it as
//! `<dir>/naive_player`; without the variable the test says that it did not
//! run, and why, and passes.

use crate::common;
use common::*;
use std::path::PathBuf;

/// The reference engine, or why it cannot be used.
fn reference_engine() -> Result<PathBuf, String> {
    let dir = std::env::var_os("PROTOCHECK_REFERENCE_BOTS").ok_or(
        "PROTOCHECK_REFERENCE_BOTS is not set (point it at the folder holding the reference engine `naive_player`)",
    )?;
    let engine = PathBuf::from(dir).join("naive_player");
    if !engine.is_file() {
        return Err(format!("{} does not exist", engine.display()));
    }
    Ok(engine)
}

#[test]
fn the_reference_engine_passes_the_default_run() {
    let engine = match reference_engine() {
        Ok(engine) => engine,
        Err(why) => {
            if std::env::var_os("PROTOCHECK_REFERENCE_BOTS").is_some() {
                // Asked for, but not there: that is a broken setup.
                panic!("the reference engine test cannot run: {why}");
            }
            eprintln!("skipped: the reference engine test did not run: {why}");
            return;
        }
    };
    let engine = engine.display().to_string();
    let out = run_json(
        &["--game", "quoridor", "--games", "6", "--seed", "1", &engine],
        &[],
    );
    let failures: Vec<String> = out.report["scenarios"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| {
            let name = s["name"].as_str().unwrap_or("").to_string();
            s["violations"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter(|v| v["severity"] == "fail")
                .map(move |v| format!("{name}: {} {}", v["rule"], v["message"]))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let statuses = out.statuses();
    assert!(
        statuses.len() >= 83 + 6,
        "the built-in suite plus 6 games: {} scenarios",
        statuses.len()
    );
    assert!(statuses.iter().all(|s| s == "passed"), "{statuses:?}");
    // Its known departures from the document are warnings under their own
    // ids (quoridor.md §7 decisions 7, 13 and 19).
    for id in [
        "quoridor.input.leading-whitespace",
        "quoridor.input.glued-comment",
        "quoridor.input.whitespace-only-line",
        "quoridor.syntax.bad-orientation",
    ] {
        assert!(out.has_rule(id), "{id} expected: {:?}", out.rules());
    }
}
