//! `protocheck match --game quoridor` against the course's own referee,
//! `quoridor_referee.py` (University of Athens): the same two engines,
//! refereed by protocheck and by the referee, play the same game, move for
//! move, with the same winner and the same walls left.
//!
//! The referee and the engines are not part of the repository. Set
//! `PROTOCHECK_REFERENCE_BOTS` to a folder holding `quoridor_referee.py`
//! and `naive_player`, and optionally a folder `quoridor-engines/` of more
//! engines (each is played against `naive_player` in both colours); without
//! it, or without `python3`, the test says so and passes. Both referees
//! start every engine as `./engine -seed 42`, so a seeded engine plays the
//! same moves under each.

use crate::common;
use common::protocheck_json;
use std::path::{Path, PathBuf};

const VARIABLE: &str = "PROTOCHECK_REFERENCE_BOTS";

/// One finished game: the winning engine's colour, every move in order as
/// `colour move` (QTP notation), and the walls each colour had left.
#[derive(Debug, PartialEq, Eq)]
struct Game {
    winner: String,
    moves: Vec<String>,
    walls_left: Vec<(String, i64)>,
}

/// The folder of the references and the engines to play, or why the test
/// is skipped.
fn references() -> Result<(PathBuf, Vec<PathBuf>), String> {
    let dir = std::env::var_os(VARIABLE)
        .map(PathBuf::from)
        .ok_or_else(|| format!("{VARIABLE} is not set"))?;
    for file in ["quoridor_referee.py", "naive_player"] {
        if !dir.join(file).is_file() {
            return Err(format!("{} has no {file}", dir.display()));
        }
    }
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if !python.is_ok_and(|o| o.status.success()) {
        return Err("python3 is not on PATH (the referee is a Python 3 script)".into());
    }
    let mut others: Vec<PathBuf> = std::fs::read_dir(dir.join("quoridor-engines"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    others.sort();
    if others.is_empty() {
        others.push(dir.join("naive_player"));
    }
    Ok((dir, others))
}

/// The referee's account of one game (`--verbose 1`): `… (black player)
/// moves to E2`, `… places horizontal wall at D8`, `… (white player) wins
/// game 1`. The engines are copied into `work` and run from there: the
/// referee starts `./<path>`.
fn referee(dir: &Path, work: &Path, black: &Path, white: &Path, size: u32) -> Game {
    for engine in [black, white] {
        std::fs::copy(engine, work.join(engine.file_name().unwrap())).unwrap();
    }
    std::fs::copy(
        dir.join("quoridor_referee.py"),
        work.join("quoridor_referee.py"),
    )
    .unwrap();
    let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
    let out = assert_cmd::Command::new("python3")
        .current_dir(work)
        .arg("quoridor_referee.py")
        .args(["--black", &name(black), "--white", &name(white)])
        .args([
            "--seed",
            "42",
            "--verbose",
            "1",
            "--size",
            &size.to_string(),
        ])
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut moves = Vec::new();
    let mut winner = String::new();
    for line in text.lines() {
        let colour = if line.contains("(black player)") {
            "black"
        } else if line.contains("(white player)") {
            "white"
        } else {
            continue;
        };
        if let Some((_, at)) = line.split_once(" moves to ") {
            moves.push(format!("{colour} {}", at.trim()));
        } else if let Some((_, rest)) = line.split_once(" places ") {
            // `horizontal wall at D8` → `D8 h`
            let (orientation, at) = rest.split_once(" wall at ").expect("a wall line");
            moves.push(format!("{colour} {} {}", at.trim(), &orientation[..1]));
        } else if line.contains(" wins game ") {
            winner = colour.to_string();
        }
    }
    assert!(!winner.is_empty(), "the referee named no winner:\n{text}");
    let walls = i64::from((7 * size - 23) / 4);
    let used = |colour: &str| {
        moves
            .iter()
            .filter(|m| m.starts_with(colour) && m.split(' ').count() == 3)
            .count() as i64
    };
    let walls_left = vec![
        ("black".to_string(), walls - used("black")),
        ("white".to_string(), walls - used("white")),
    ];
    Game {
        winner,
        moves,
        walls_left,
    }
}

/// protocheck's account of game 1 of a match (`black` at seat 1), and
/// what it found besides (after the game: the referee judges none of it).
fn protocheck(black: &Path, white: &Path, size: u32) -> (Game, Vec<String>) {
    let (code, report, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "quoridor",
            &black.display().to_string(),
            &white.display().to_string(),
            "--board-size",
            &size.to_string(),
            "--format",
            "json",
        ],
        &[],
    );
    let game = &report["games"][0];
    // The game must stand as played. Findings after it are protocheck's
    // own (the referee never sends `quit`; protocheck judges its answer,
    // rules/quoridor.md §5): they are shown, not compared.
    assert_eq!(
        (game["outcome"].as_str(), &game["forfeit"]),
        (Some("finished"), &serde_json::Value::Null),
        "{game:#}\n{stderr}"
    );
    assert!(code == 0 || code == 1, "exit {code}\n{stderr}");
    let mut also: Vec<String> = game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {} ({})", f["bot"], f["rule"], f["severity"]))
        .collect();
    also.dedup();
    let seats = ["black", "white"];
    let mut moves = Vec::new();
    let mut asked: [Option<&str>; 2] = [None, None];
    for line in game["transcript"].as_array().unwrap() {
        let text = line["text"].as_str().unwrap();
        let (seat, body) = text.split_once(": ").unwrap();
        let seat: usize = seat.trim_start_matches("seat ").parse::<usize>().unwrap() - 1;
        match line["dir"].as_str().unwrap() {
            "sent" => asked[seat] = Some(body),
            "received" => {
                if asked[seat].is_some_and(|c| c.starts_with("genmove"))
                    && let Some(mv) = body.strip_prefix("= ")
                {
                    // QTP letters are case-insensitive (`D8 H` is `d8 h`);
                    // the referee prints `D8 h`.
                    let mv = mv.trim().to_ascii_lowercase();
                    let mv = mv[..1].to_ascii_uppercase() + &mv[1..];
                    moves.push(format!("{} {mv}", seats[seat]));
                }
                asked[seat] = None;
            }
            _ => {}
        }
    }
    let walls_left = game["score"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["side"].as_str().unwrap().to_string(),
                s["value"].as_i64().unwrap(),
            )
        })
        .collect();
    let game = Game {
        winner: game["winner"]["seat"]
            .as_u64()
            .map(|s| seats[s as usize - 1].to_string())
            .unwrap_or_default(),
        moves,
        walls_left,
    };
    (game, also)
}

#[test]
fn engines_play_the_same_game_under_protocheck_as_under_the_athens_referee() {
    let (dir, others) = match references() {
        Ok(found) => found,
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let naive = dir.join("naive_player");
    // The referee writes `last_game.sh` where it runs: a folder of its own.
    let work = std::env::temp_dir().join(format!("protocheck-qtp-referee-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let mut compared = 0;
    for other in &others {
        for (black, white) in [(&naive, other), (other, &naive)] {
            for size in [9, 5] {
                let started = std::time::Instant::now();
                let theirs = referee(&dir, &work, black, white, size);
                let referee_time = started.elapsed();
                let started = std::time::Instant::now();
                let (ours, also) = protocheck(black, white, size);
                let protocheck_time = started.elapsed();
                assert_eq!(
                    ours,
                    theirs,
                    "{} (black) vs {} (white) on {size}×{size}",
                    black.display(),
                    white.display()
                );
                println!(
                    "{} vs {} on {size}×{size}: {} moves, {} won, walls left {:?}: the same under both (referee {referee_time:.1?}, protocheck {protocheck_time:.1?})",
                    black.display(),
                    white.display(),
                    ours.moves.len(),
                    ours.winner,
                    ours.walls_left
                );
                for finding in also {
                    println!("  protocheck also found, after the game: {finding}");
                }
                compared += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(compared > 0);
}
