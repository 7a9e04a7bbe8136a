//! A game's own expectations (QTP's `success` and `error`) belong to that
//! game: every other game refuses them the same way, before any bot runs,
//! at the step's file:line:col, naming the game and the expectations it
//! knows.

use crate::common;
use assert_cmd::Command;
use common::*;
use std::path::Path;

const CORE: &str = "`legal-move`, `reply`, `matches`, `silence`, `exit`";

fn protocheck() -> Command {
    Command::cargo_bin("protocheck").unwrap()
}

/// A scenario for `game` whose third line is `expect: <expectation>`.
fn scenario(dir: &Path, game: &str, expectation: &str) -> String {
    let path = dir.join(format!("{game}.yaml"));
    std::fs::write(
        &path,
        format!("name: own\ngame: {game}\nsteps:\n  - expect: {expectation}\n"),
    )
    .unwrap();
    path.display().to_string()
}

/// `protocheck lint` of the file: exit status and stderr.
fn lint(game: &str, file: &str) -> (Option<i32>, String) {
    let out = protocheck()
        .args(["lint", "--game", game, file])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn success_and_error_are_refused_alike_by_every_game_but_quoridor() {
    let dir = tempdir();
    // Every game without expectations of its own (all but Quoridor).
    let plain = protocheck::games::ALL
        .iter()
        .filter(|g| g.expectations().is_empty())
        .map(|g| g.id());
    for game in plain {
        let file = scenario(&dir, game, "success");
        let (code, stderr) = lint(game, &file);
        assert_eq!(code, Some(2), "{game}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "{file}:4:5: unknown expectation `success`: {game} knows {CORE}"
            )),
            "{game}: {stderr}"
        );
        let file = scenario(&dir, game, "{ error: \"illegal move\" }");
        let (code, stderr) = lint(game, &file);
        assert_eq!(code, Some(2), "{game}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "{file}:4:5: unknown expectation `error`: {game} knows {CORE}"
            )),
            "{game}: {stderr}"
        );
    }
}

#[test]
fn an_evolution_run_with_expect_success_stops_before_the_bot_starts() {
    let dir = tempdir();
    let file = scenario(&dir, "evolution", "success");
    let out = protocheck()
        .args([
            "--game",
            "evolution",
            "--scenarios",
            &file,
            &bot("evo-correct"),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{file}:4:5: unknown expectation `success`: evolution knows"
        )),
        "{stderr}"
    );
}

#[test]
fn quoridor_knows_its_own_and_a_misspelt_one_is_named_with_the_nearest() {
    let dir = tempdir();
    let path = dir.join("qtp.yaml");
    std::fs::write(
        &path,
        concat!(
            "name: own\ngame: quoridor\nsteps:\n",
            "  - send: \"boardsize 9\"\n  - expect: success\n",
            "  - send: \"clear_board\"\n  - send: \"walls 10\"\n",
            "  - send: \"playmove white E9\"\n  - expect: { error: \"illegal move\" }\n",
        ),
    )
    .unwrap();
    let file = path.display().to_string();
    let (code, stderr) = lint("quoridor", &file);
    assert_eq!(code, Some(0), "{stderr}");

    let file = scenario(&dir, "quoridor", "sucess");
    let (code, stderr) = lint("quoridor", &file);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{file}:4:5: unknown expectation `sucess`: quoridor knows {CORE}, `success`, `error` (did you mean `success`?)"
        )),
        "{stderr}"
    );
}
