//! What this binary is: its version, the git commit it was built from and
//! its target, as `protocheck --version` prints them and every report
//! carries them, so a report (a student's, a grade's, a platform's) can be
//! traced to the exact build that wrote it. Set by `build.rs`.

/// The version alone (`Cargo.toml`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The commit (12 hex digits), or `unknown commit` where the build had no
/// repository and no `PROTOCHECK_COMMIT` (set for builds from an unpacked
/// source archive).
pub const COMMIT: &str = env!("PROTOCHECK_BUILD_COMMIT");
/// The target triple it was built for.
pub const TARGET: &str = env!("PROTOCHECK_BUILD_TARGET");
/// `0.1.0 (1a2b3c4d5e6f x86_64-unknown-linux-gnu)`: what `--version` prints
/// after the name, and what reports carry.
pub const LONG: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("PROTOCHECK_BUILD_COMMIT"),
    " ",
    env!("PROTOCHECK_BUILD_TARGET"),
    ")"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_long_version_names_the_version_commit_and_target() {
        assert_eq!(LONG, format!("{VERSION} ({COMMIT} {TARGET})"));
        assert!(TARGET.contains('-'), "{TARGET}");
        assert!(
            COMMIT == "unknown commit"
                || (COMMIT.len() >= 7 && COMMIT.chars().all(|c| c.is_ascii_hexdigit())),
            "{COMMIT}"
        );
    }
}
