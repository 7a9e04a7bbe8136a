//! What a run exercised (issue 30, docs/coverage.md): the coverage of each
//! game's correct sample bot over its built-in suite is pinned, and
//! `--require-coverage` (or the project file's `require-coverage`) fails a
//! run that never checked a named rule or reached a named situation.

use crate::common;
use assert_cmd::Command;
use common::*;
use serde_json::Value;

/// (rules checked, rules in the catalogue, situations reached, situations
/// declared), and every row's broken count, from a JSON report.
fn counts(report: &Value) -> (usize, usize, usize, usize, u64) {
    let rows = report["coverage"]["rows"]
        .as_array()
        .expect("the report has coverage rows");
    let of = |kind: &'static str| rows.iter().filter(move |r| r["kind"] == kind);
    let hit = |kind: &'static str| of(kind).filter(|r| r["checked"].as_u64() > Some(0)).count();
    let broken = rows.iter().map(|r| r["broken"].as_u64().unwrap()).sum();
    (
        hit("rule"),
        of("rule").count(),
        hit("situation"),
        of("situation").count(),
        broken,
    )
}

#[test]
fn the_coverage_of_each_correct_sample_bot_is_pinned() {
    // The built-in suites are deterministic (their seeds are the
    // scenarios'), so these counts change only when a suite, a catalogue,
    // a game's situations or what judging counts changes: update them
    // deliberately.
    for (game, bot_name, want) in [
        ("kalah", "kalah-correct", (23, 29, 10, 10)),
        ("quoridor", "qtp-correct", (47, 66, 7, 7)),
        ("dominion-text", "dtext-correct", (46, 49, 15, 15)),
        ("dominion-sexp", "dsx-correct", (29, 33, 3, 3)),
        ("evolution", "evo-correct", (36, 41, 24, 25)),
    ] {
        let out = run_json(&["--game", game, &bot(bot_name)], &[]);
        assert_eq!(out.code, 0, "{game}: {}", out.stderr);
        let (rules, all_rules, reached, all_situations, broken) = counts(&out.report);
        assert_eq!(
            (rules, all_rules, reached, all_situations),
            want,
            "{game}: (rules checked, rules, situations reached, situations)"
        );
        // A correct bot breaks no check that fails (Evolution's gets the
        // warnings its file documents): a broken check is a finding.
        assert_eq!(
            broken,
            findings(&out.report).len() as u64,
            "{game}: broken checks are the findings"
        );
        assert_eq!(out.report["totals"]["failed"], 0, "{game}");
    }
}

#[test]
fn a_broken_bot_counts_its_findings_as_broken_checks() {
    let out = run_json(&["--game", "kalah", &bot("kalah-zero-based")], &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let rows = out.report["coverage"]["rows"].as_array().unwrap();
    let broken: u64 = rows.iter().map(|r| r["broken"].as_u64().unwrap()).sum();
    let findings = findings(&out.report).len() as u64;
    assert!(
        broken >= findings && findings > 0,
        "{broken} broken, {findings} findings"
    );
}

fn protocheck() -> Command {
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    cmd.timeout(std::time::Duration::from_secs(240));
    cmd
}

#[test]
fn require_coverage_fails_a_run_that_missed_what_it_names() {
    let bot = bot("kalah-correct");
    // The correct bot's replies never take an hour in all: the time
    // budget is never checked by the built-in suite.
    let out = protocheck()
        .args(["--game", "kalah", "-q", &bot])
        .args(["--require-coverage", "kalah.capture.any,kalah.time.budget"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "--require-coverage: this run never checked or reached: kalah.time.budget (rule)"
        ),
        "{err}"
    );
    assert!(!err.contains("kalah.capture.any"), "{err}");
    // What it reached passes.
    protocheck()
        .args(["--game", "kalah", "-q", &bot])
        .args([
            "--require-coverage",
            "kalah.capture.any",
            "--require-coverage",
            "kalah.move.empty-hole",
        ])
        .assert()
        .code(0);
    // A typo is a usage error, before any bot runs.
    protocheck()
        .args([
            "--game",
            "kalah",
            &bot,
            "--require-coverage",
            "kalah.captur",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--require-coverage: kalah.captur is no rule or situation of kalah",
        ));
    // The project file's key does the same.
    let dir = tempdir();
    std::fs::write(
        dir.join("protocheck.toml"),
        format!(
            "game = \"kalah\"\nbot = \"{bot}\"\nquiet = true\nrequire-coverage = [\"kalah.swap.bot-swapped\", \"kalah.process.stderr-overflow\"]\n"
        ),
    )
    .unwrap();
    let out = protocheck().current_dir(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("kalah.process.stderr-overflow (rule)"),
        "{err}"
    );
    assert!(!err.contains("kalah.swap.bot-swapped"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A game's name and its transcript: each line's direction and text.
type Game = (String, Vec<(String, String)>);

/// The situations a JSON report's run reached, and each generated game's
/// transcript (what was sent and received, without times, nor the port an
/// Evolution client connected from).
fn situations_and_games(report: &Value) -> (usize, Vec<Game>) {
    let (_, _, reached, _, _) = counts(report);
    let games = report["scenarios"]
        .as_array()
        .expect("scenarios")
        .iter()
        .map(|s| {
            let lines = s["transcript"]
                .as_array()
                .expect("a transcript")
                .iter()
                .filter(|l| {
                    !l["text"]
                        .as_str()
                        .is_some_and(|t| t.contains("connected (from"))
                })
                .map(|l| (l["dir"].to_string(), l["text"].to_string()))
                .collect();
            (s["name"].as_str().unwrap().to_string(), lines)
        })
        .collect();
    (reached, games)
}

#[test]
fn generated_games_aim_at_the_situations_the_run_has_not_reached() {
    // Before generated play aimed (the same games, seed and bot), these runs
    // reached 9 of Kalah's 10 situations (never a capture of the last
    // seeds) and 3 of QTP's 7 (never a side-step). Over seeds 1-30, two
    // Kalah games reached 270 situations in all before, 290 now; over seeds
    // 1-12, three QTP games 40 before, 43 now. QTP's generated games never
    // send probes (a wall refused for cutting a path off, an undo past the
    // history), and play a board larger than 9×9 only with `--board-size`.
    // Evolution's two games reached 4 of its 25 situations before (a
    // feeding decision with herding, with horns, and the two player
    // counts), 12 now: the bot is dealt hands of one unseen trait and the
    // built-in players give up their most food; over seeds 1-6, two games
    // reached 29 in all before, 66 now.
    for (game, bot_name, games, seed, want) in [
        ("kalah", "kalah-correct", "2", "3", 10),
        ("quoridor", "qtp-correct", "3", "4", 4),
        ("evolution", "evo-correct", "2", "1", 12),
    ] {
        let out = run_json(
            &[
                "--game",
                game,
                &bot(bot_name),
                "--games",
                games,
                "--seed",
                seed,
                "--filter",
                "generated",
            ],
            &[],
        );
        assert_eq!(out.code, 0, "{game}: {}", out.stderr);
        let (reached, _) = situations_and_games(&out.report);
        assert_eq!(reached, want, "{game}: situations reached");
    }
}

#[test]
fn aimed_games_are_the_same_from_the_same_seed_whatever_the_jobs() {
    // Six games: the last two aim past what the first two reached (four
    // games apart), so they depend on those games having ended.
    for (game, bot_name) in [("kalah", "kalah-correct"), ("evolution", "evo-correct")] {
        let run = |jobs: &str| {
            let out = run_json(
                &[
                    "--game",
                    game,
                    &bot(bot_name),
                    "--games",
                    "6",
                    "--seed",
                    "11",
                    "--filter",
                    "generated",
                    "--jobs",
                    jobs,
                ],
                &[],
            );
            assert_eq!(out.code, 0, "{game} --jobs {jobs}: {}", out.stderr);
            situations_and_games(&out.report)
        };
        let one = run("1");
        assert_eq!(one.1.len(), 6);
        assert_eq!(
            run("2"),
            one,
            "{game}: --jobs 2 plays the games --jobs 1 plays"
        );
        assert_eq!(run("1"), one, "{game}: the same seed plays the same games");
    }
}
