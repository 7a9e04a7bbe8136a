//! The reports, pinned: human, JSON and JUnit for a passing and a failing
//! Kalah run, and the human report of a failing Quoridor run with its board.
//! Timings and machine paths are normalised; everything else is exact.

use crate::common;
use assert_cmd::Command;
use common::*;

fn report(game: &str, bot_name: &str, fixture_name: &str, format: &str) -> (i32, String) {
    let bot = bot(bot_name);
    let scenario = fixture(fixture_name);
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args([
            "--game",
            game,
            "--scenarios",
            &scenario,
            "--jobs",
            "1",
            "--color",
            "never",
            "--format",
            format,
            "--env",
            "KALAH_BOT_SEED=7",
            "--env",
            "KALAH_BOT_SWAP=never",
            &bot,
        ])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        normalise(&String::from_utf8_lossy(&out.stdout), &bot),
    )
}

/// Replace what differs between runs and machines.
fn normalise(text: &str, bot: &str) -> String {
    // The commit and target (build_info::LONG) differ between builds.
    let text = canonical_sandbox(text)
        .replace(protocheck::build_info::LONG, env!("CARGO_PKG_VERSION"))
        .replace(bot, "<bot>")
        .replace(env!("CARGO_MANIFEST_DIR"), "<repo>");
    let rules: [(&str, &str); 6] = [
        // Whether a bot left at EOF or at SIGTERM when a scenario ends mid-game is timing.
        (
            r"protocheck stopped the bot \([^)]*\)+",
            "protocheck stopped the bot (<how>)",
        ),
        (r"\d+ ms\b", "<t> ms"),
        (r" +\d+ms\b", " <t>ms"),
        (r#""(duration_ms|listened_ms|ms)": \d+"#, r#""$1": 0"#),
        (r#"time="[0-9.]+""#, r#"time="0""#),
        (r"protocheck \d+\.\d+\.\d+", "protocheck <version>"),
    ];
    let mut text = text;
    for (pattern, with) in rules {
        text = regex::Regex::new(pattern)
            .unwrap()
            .replace_all(&text, with)
            .into_owned();
    }
    text.replace(
        &format!("\"{}\"", env!("CARGO_PKG_VERSION")),
        "\"<version>\"",
    )
}

macro_rules! pin {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

#[test]
fn kalah_passing_run() {
    for format in ["human", "json", "junit"] {
        let (code, text) = report("kalah", "kalah-correct", "kalah/snapshot-pass.yaml", format);
        assert_eq!(code, 0, "{text}");
        pin!(format!("kalah-pass-{format}"), text);
    }
}

#[test]
fn kalah_failing_run() {
    for format in ["human", "json", "junit"] {
        let (code, text) = report(
            "kalah",
            "kalah-zero-based",
            "kalah/snapshot-fail.yaml",
            format,
        );
        assert_eq!(code, 1, "{text}");
        pin!(format!("kalah-fail-{format}"), text);
    }
}

#[test]
fn quoridor_failing_run_draws_the_board() {
    let (code, text) = report(
        "quoridor",
        "qtp-sidestep-through-wall",
        "quoridor/sidestep.yaml",
        "human",
    );
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("quoridor.playmove.rejects-illegal"), "{text}");
    pin!("quoridor-fail-human", text);
}

/// Warnings of a passing QTP engine (`qtp-leading-whitespace`, two
/// `quoridor.input.leading-whitespace` findings, one of them with a board):
/// the human report draws no board for a warning (only `-v` does), and `-q`
/// lists each warning on one line instead of hiding it behind a count.
#[test]
fn quoridor_warnings_without_boards_and_listed_when_quiet() {
    let bot = bot("qtp-leading-whitespace");
    let run = |extra: &[&str]| {
        let out = Command::cargo_bin("protocheck")
            .unwrap()
            .with_fixed_environment()
            .args(["--game", "quoridor", "--filter", "input-leading-whitespace"])
            .args(["--jobs", "1", "--color", "never"])
            .args(extra)
            .arg(&bot)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        normalise(&String::from_utf8_lossy(&out.stdout), &bot)
    };
    let plain = run(&[]);
    assert!(
        plain.contains("quoridor.input.leading-whitespace [warn]"),
        "{plain}"
    );
    assert!(!plain.contains("board at this step"), "{plain}");
    pin!("quoridor-warnings-human", plain);
    let quiet = run(&["-q"]);
    pin!("quoridor-warnings-quiet", quiet);
    let verbose = run(&["-v"]);
    assert!(verbose.contains("board at this step"), "{verbose}");
}

/// `--format github`: annotations placed on the user's scenario file, paths
/// relative to the workspace; in GitHub Actions the same annotations go to
/// stderr beside another format, and the step summary gets the table.
#[test]
fn github_annotations_and_step_summary() {
    let bot = bot("kalah-zero-based");
    let scenario = fixture("kalah/snapshot-fail.yaml");
    let run = |format: &str, summary: &std::path::Path, actions: bool| {
        let mut cmd = Command::cargo_bin("protocheck").unwrap();
        cmd.with_fixed_environment();
        cmd.args(["--game", "kalah", "--scenarios", &scenario, "--jobs", "1"])
            .args(["--color", "never", "--format", format, &bot])
            .args(["--env", "KALAH_BOT_SEED=7", "--env", "KALAH_BOT_SWAP=never"])
            .env("GITHUB_WORKSPACE", env!("CARGO_MANIFEST_DIR"))
            .env("GITHUB_STEP_SUMMARY", summary)
            .timeout(std::time::Duration::from_secs(60));
        if actions {
            cmd.env("GITHUB_ACTIONS", "true");
        } else {
            cmd.env_remove("GITHUB_ACTIONS");
        }
        cmd.output().unwrap()
    };
    let dir = std::env::temp_dir().join(format!("protocheck-gh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let summary = dir.join("summary.md");

    let out = run("github", &summary, false);
    assert_eq!(out.status.code(), Some(1));
    let text = normalise(&String::from_utf8_lossy(&out.stdout), &bot);
    assert!(
        text.contains("::error file=tests/fixtures/kalah/snapshot-fail.yaml,line="),
        "{text}"
    );
    assert!(!summary.exists(), "no summary outside GitHub Actions");
    pin!("kalah-fail-github", text);

    let out = run("junit", &summary, true);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.starts_with("<?xml") && !stdout.contains("::error"),
        "{stdout}"
    );
    assert!(
        stderr.contains("::error file=tests/fixtures/kalah/snapshot-fail.yaml,"),
        "{stderr}"
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.contains("| scenario | result | rule | finding |"),
        "{md}"
    );
    assert!(md.contains("❌ fail"), "{md}");

    std::fs::remove_file(&summary).unwrap();
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .with_fixed_environment()
        .args(["--game", "kalah", "--scenarios", &scenario, "--jobs", "1"])
        .args(["--format", "json", "--no-annotations", &bot])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("::error"));
    assert!(!summary.exists(), "--no-annotations writes no summary");
    let _ = std::fs::remove_dir_all(&dir);
}
