//! Embeds the built-in scenario suites (`scenarios/<game>/*.yaml`) in the
//! binary, so `protocheck` needs no files beside it.
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
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
