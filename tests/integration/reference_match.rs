//! `protocheck match` against the course's own Kalah engine: the same two
//! agents, played by protocheck and by ManKalah.jar, give the same winner
//! and the same final stores.
//!
//! The agents and the engine are not part of the repository. Set
//! `PROTOCHECK_REFERENCE_BOTS` to a folder holding `ManKalah.jar`,
//! `MKRefAgent.jar` and `Group2Agent.jar` (run with `java -jar`); without
//! it the test says so and passes.

use crate::common;
use common::{protocheck_json, side_score};
use std::path::{Path, PathBuf};

const VARIABLE: &str = "PROTOCHECK_REFERENCE_BOTS";

/// What a finished Kalah match came to: the winning agent (`None` for a
/// draw) and the final stores (North, South).
#[derive(Debug, PartialEq, Eq)]
struct Result {
    winner: Option<String>,
    stores: (u32, u32),
}

/// The folder of the references, or why the test is skipped.
fn references() -> std::result::Result<PathBuf, String> {
    let dir = std::env::var_os(VARIABLE)
        .map(PathBuf::from)
        .ok_or_else(|| format!("{VARIABLE} is not set"))?;
    for jar in ["ManKalah.jar", "MKRefAgent.jar", "Group2Agent.jar"] {
        if !dir.join(jar).is_file() {
            return Err(format!("{} has no {jar}", dir.display()));
        }
    }
    Ok(dir)
}

/// An executable that runs `java -jar <jar>`: `protocheck match` takes bot
/// programs. The jar is copied beside it, as a submission holds its own
/// program: the sandbox lets a bot read its own folder, not a path named
/// only inside its script (docs/sandbox.md).
fn launcher(folder: &Path, jar: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let name = jar.file_stem().unwrap().to_string_lossy().into_owned();
    let path = folder.join(&name);
    let own_jar = folder.join(jar.file_name().unwrap());
    if !own_jar.exists() {
        std::fs::copy(jar, &own_jar).unwrap();
    }
    let script = format!(
        "#!/bin/sh\nexec java -jar {} \"$@\"\n",
        shell_words::quote(&own_jar.display().to_string())
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// ManKalah.jar's account of a match (on stderr): the last board (North's
/// store first on its first line, South's store last on its second), then
/// `WINNER: Player N (command)` or a draw.
fn mankalah(dir: &Path, south: &str, north: &str) -> Result {
    let out = assert_cmd::Command::new("java")
        .arg("-jar")
        .arg(dir.join("ManKalah.jar"))
        .args([south, north])
        .timeout(std::time::Duration::from_secs(1200))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    let board_end = lines
        .iter()
        .position(|l| l.starts_with("WINNER") || l.contains("DRAW") || l.contains("draw"))
        .unwrap_or_else(|| panic!("no result in ManKalah's output:\n{text}"));
    let board: Vec<&str> = lines[..board_end]
        .iter()
        .rev()
        .filter(|l| l.contains("--"))
        .take(2)
        .copied()
        .collect();
    let number = |s: &str| {
        s.trim()
            .parse::<u32>()
            .unwrap_or_else(|_| panic!("`{s}` in\n{text}"))
    };
    let north = number(board[1].split("--").next().unwrap());
    let south = number(board[0].split("--").last().unwrap());
    let winner = lines[board_end]
        .strip_prefix("WINNER: Player ")
        .map(|rest| match rest.chars().next() {
            Some('1') => "south-agent".to_string(),
            _ => "north-agent".to_string(),
        });
    Result {
        winner,
        stores: (north, south),
    }
}

fn protocheck(south: &str, north: &str) -> Result {
    let (code, report, stderr) = protocheck_json(
        &[
            "match",
            "--game",
            "kalah",
            south,
            north,
            "--format",
            "json",
            "--timeout",
            "60s",
        ],
        &[],
    );
    let game = &report["games"][0];
    assert_eq!(
        game["outcome"], "finished",
        "exit {code}: {report:#}\n{stderr}"
    );
    let store = |side: &str| side_score(game, side);
    Result {
        winner: game["winner"]["seat"].as_u64().map(|seat| {
            if seat == 1 {
                "south-agent"
            } else {
                "north-agent"
            }
            .to_string()
        }),
        stores: (store("North"), store("South")),
    }
}

#[test]
fn kalah_match_results_equal_mankalahs() {
    let dir = match references() {
        Ok(dir) => dir,
        Err(reason) => {
            eprintln!("skipped: {reason} (see the module comment)");
            return;
        }
    };
    let folder = common::tempdir();
    let (a, b) = (dir.join("MKRefAgent.jar"), dir.join("Group2Agent.jar"));
    for (south, north) in [(&a, &b), (&b, &a)] {
        let reference = mankalah(
            &dir,
            &format!("java -jar {}", south.display()),
            &format!("java -jar {}", north.display()),
        );
        let ours = protocheck(&launcher(&folder, south), &launcher(&folder, north));
        assert_eq!(
            ours,
            reference,
            "{} South vs {} North",
            south.display(),
            north.display()
        );
    }
}
