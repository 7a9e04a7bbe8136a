//! `protocheck init` and `protocheck.toml` as a user meets them: init in a
//! fresh folder, then a bare `protocheck` (there and in a subfolder) runs
//! the configured bot; the command line overrides the file; mistakes in the
//! file are located.

use crate::common;
use assert_cmd::Command;
use common::*;

fn protocheck(dir: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    cmd.current_dir(dir).env_remove("GITHUB_ACTIONS");
    cmd
}

#[test]
fn init_then_a_bare_protocheck_runs_the_configured_bot() {
    let dir = std::env::temp_dir().join(format!("protocheck-init-it-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/deep")).unwrap();
    let out = protocheck(&dir)
        .args(["init", "--game", "kalah", "--bot", &bot("kalah-correct")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let workflow = std::fs::read_to_string(dir.join(".github/workflows/protocheck.yml")).unwrap();
    let parsed: serde_json::Value = serde_saphyr::from_str(&workflow).unwrap();
    assert!(
        parsed["jobs"]["protocheck"]["steps"]
            .as_array()
            .unwrap()
            .len()
            >= 4
    );

    for folder in [dir.clone(), dir.join("src/deep")] {
        let out = protocheck(&folder)
            .args(["--filter", "south-first-move", "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["game"], "kalah");
        assert_eq!(report["generated"]["seed"], 1, "the file's seed is used");
    }
    // The command line wins over the file.
    let out = protocheck(&dir)
        .args([
            "--filter",
            "south-first-move",
            "--seed",
            "9",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["generated"]["seed"], 9);
    // --no-config ignores it.
    protocheck(&dir)
        .arg("--no-config")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--game is required"));
    // init does not overwrite.
    protocheck(&dir)
        .args(["init", "--game", "quoridor"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not overwritten"));
    // A mistake is reported at its line and column.
    std::fs::write(
        dir.join("protocheck.toml"),
        "game = \"kalah\"\ntimeout = \"soon\"\n",
    )
    .unwrap();
    let out = protocheck(&dir.join("src")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("protocheck.toml:2:11: ") && err.contains("soon"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
