//! protocheck runs only on Unix-like systems: it drives bots through pipes,
//! process groups and signals (`transport`), and has no Windows transport.
//! A Windows build stops here with a message that says what to do instead,
//! rather than with errors about missing Unix APIs.
//!
//! `protocheck_pretend_windows` lets the test below compile this file as a
//! Windows build would see it (this machine has no Windows target).

#[cfg(any(not(unix), protocheck_pretend_windows))]
compile_error!(
    "protocheck does not build on Windows: it drives bots through Unix pipes, process groups and signals. On Windows, install and run protocheck inside WSL (Windows Subsystem for Linux); see docs/install.md."
);

#[cfg(test)]
mod tests {
    use std::process::Command;

    fn cfg_of(target: &str) -> Vec<String> {
        let out = Command::new("rustc")
            .args(["--print", "cfg", "--target", target])
            .output()
            .expect("rustc runs");
        assert!(out.status.success(), "rustc --print cfg --target {target}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Compiles this file alone (not the crate), with extra rustc flags.
    fn compile_guard(extra: &[&str]) -> std::process::Output {
        let dir = std::env::temp_dir().join(format!("protocheck-guard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/src/platform_guard.rs");
        let out = Command::new("rustc")
            .args([
                "--crate-type",
                "lib",
                "--edition",
                "2024",
                "--emit",
                "metadata",
            ])
            .args(["--crate-name", "guard", "--out-dir"])
            .arg(&dir)
            .args(extra)
            .arg(file)
            .output()
            .expect("rustc runs");
        let _ = std::fs::remove_dir_all(&dir);
        out
    }

    #[test]
    fn the_guard_fires_exactly_where_unix_is_missing() {
        // The condition: Windows targets lack `unix`, the supported ones have it.
        assert!(!cfg_of("x86_64-pc-windows-msvc").contains(&"unix".into()));
        assert!(!cfg_of("x86_64-pc-windows-gnu").contains(&"unix".into()));
        for target in [
            "x86_64-unknown-linux-gnu",
            "aarch64-unknown-linux-gnu",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
        ] {
            assert!(cfg_of(target).contains(&"unix".into()), "{target}");
        }
        // Here (unix) the file compiles.
        let here = compile_guard(&[]);
        assert!(
            here.status.success(),
            "{}",
            String::from_utf8_lossy(&here.stderr)
        );
        // As Windows sees it, the build stops with the message.
        let windows = compile_guard(&["--cfg", "protocheck_pretend_windows"]);
        assert!(!windows.status.success());
        let said = String::from_utf8_lossy(&windows.stderr);
        assert!(
            said.contains("protocheck does not build on Windows")
                && said.contains("inside WSL")
                && said.contains("docs/install.md"),
            "{said}"
        );
    }
}
