//! Embeds the built-in scenario suites (`scenarios/<game>/*.yaml`) in the
//! binary, so `protocheck` needs no files beside it, and names the commit
//! and target it was built from (`src/build_info.rs`).
use std::path::Path;

/// The package's folder, as Cargo gives it to this run of the script. Not
/// `env!`, which is the folder the script was compiled in: Cargo reuses a
/// compiled script for a checkout at another path (a shared target folder),
/// and the script then embedded another checkout's scenarios, or none.
fn manifest_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("Cargo sets it"))
}

fn main() {
    build_info();
    let root = manifest_dir().join("scenarios");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if let Ok(games) = std::fs::read_dir(&root) {
        for game in games.flatten() {
            let dir = game.path();
            println!("cargo:rerun-if-changed={}", dir.display());
            if !dir.is_dir() {
                continue;
            }
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let p = entry.path();
                if matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
                    println!("cargo:rerun-if-changed={}", p.display());
                    let rel = p
                        .strip_prefix(&root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    files.push((rel, p.display().to_string()));
                }
            }
        }
    }
    files.sort();
    let mut out = String::from(
        "/// (path under scenarios/, contents)\nstatic BUILTIN: &[(&str, &str)] = &[\n",
    );
    for (rel, abs) in files {
        out.push_str(&format!("    ({rel:?}, include_str!({abs:?})),\n"));
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("builtin_scenarios.rs");
    std::fs::write(dest, out).unwrap();
}

/// The git commit and target `protocheck --version` and every report name
/// (`src/build_info.rs`). `PROTOCHECK_COMMIT` overrides the commit for
/// builds without the repository's `.git` (an unpacked source archive).
/// The script runs again when HEAD moves, so a rebuilt binary never names an
/// older commit.
fn build_info() {
    println!("cargo:rerun-if-env-changed=PROTOCHECK_COMMIT");
    let commit = std::env::var("PROTOCHECK_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(git_commit)
        .unwrap_or_else(|| "unknown commit".to_string());
    println!("cargo:rustc-env=PROTOCHECK_BUILD_COMMIT={}", commit.trim());
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown target".to_string());
    println!("cargo:rustc-env=PROTOCHECK_BUILD_TARGET={target}");
}

/// The commit checked out in this repository (never in one that merely
/// contains an unpacked copy of it), or `None`.
fn git_commit() -> Option<String> {
    let manifest = manifest_dir();
    let manifest = manifest.as_path();
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(manifest)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let top = git(&["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(top).ok()? != std::fs::canonicalize(manifest).ok()? {
        return None;
    }
    // HEAD, the branch it points at, and packed refs: whichever moves on a
    // commit or checkout. Only files that exist (a missing one would make
    // the script run at every build).
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            let path = manifest.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"])
}
