//! The options of a single run that every bot is graded with (given after
//! `--`), as the command line parsed them with the parser of a single run:
//! the ones grade sets itself refused, and paths made absolute (each bot
//! runs in its own working folder).

use crate::transport::sandbox::SandboxOptions;
use std::path::Path;

/// Options grade decides for every bot, with why.
const SET_BY_GRADE: &[(&str, &str)] = &[
    ("bot", "the roster names the bots"),
    (
        "bot_cmd",
        "the roster names the bots (a CSV roster takes command lines)",
    ),
    (
        "bot_args",
        "the roster names the bots (a CSV roster takes command lines)",
    ),
    (
        "format",
        "grade writes JSON, text and HTML reports for every bot",
    ),
    ("output", "grade writes each bot's reports into --out"),
    (
        "report",
        "grade writes JSON, text and HTML reports for every bot into --out",
    ),
    (
        "jobs",
        "grade's own --jobs sets how many bots run at once, and gives a bot's scenarios the jobs no other bot needs",
    ),
    (
        "list",
        "run `protocheck --list` itself to see the selection",
    ),
    (
        "check_scenarios",
        "run `protocheck lint` itself to check scenarios",
    ),
    ("no_spawn", "grade starts every bot itself"),
    ("port", "bots graded side by side cannot share one port"),
    (
        "save_failures",
        "bots would overwrite each other's saved games",
    ),
    ("color", "grade writes reports to files"),
    (
        "bot_time_limit",
        "it is grade's own option: give it before `--` (grade also stops a bot's protocheck that overruns it)",
    ),
    (
        "no_config",
        "grade never reads a bot's protocheck.toml; give --config FILE for settings from a file",
    ),
];

/// Options whose value is a path, made absolute against grade's folder.
const PATH_OPTIONS: &[&str] = &["--scenarios", "--config", "--allow-read", "--grading"];

/// The checked run options, ready to pass to every bot's protocheck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    pub args: Vec<String>,
    /// `--game`, when given (for the summary page).
    pub game: Option<String>,
    /// The sandbox every bot's run will have, from the options wherever
    /// they were given.
    pub sandbox: crate::transport::sandbox::SandboxOptions,
}

/// The run options after `--`, followed by grade's own limit and sandbox
/// flags (`words`, given before `--`) so that every bot's run gets them
/// too. One flag on both sides is refused: which one would hold is not
/// obvious (`--allow-read`, which adds up, excepted).
/// Run options that grade refuses, with what to give instead.
#[derive(Debug, thiserror::Error)]
pub enum RunOptionsError {
    #[error("{0} is given both before `--` and after it; give it once")]
    GivenTwice(String),
    #[error("{written} cannot be given to grade: {why}")]
    SetByGrade { written: String, why: &'static str },
    #[error(
        "--games needs --seed in grade, so that every bot meets the same games (e.g. --games 20 --seed 2026)"
    )]
    GamesWithoutSeed,
}

pub fn with_limits(given: &[String], words: &[String]) -> Result<Vec<String>, RunOptionsError> {
    for name in words.iter().filter(|w| w.starts_with("--")) {
        if name == "--allow-read" {
            continue;
        }
        let named = |w: &String| w == name || w.starts_with(&format!("{name}="));
        if given.iter().any(named) {
            return Err(RunOptionsError::GivenTwice(name.clone()));
        }
    }
    Ok(given.iter().chain(words).cloned().collect())
}

/// The run options after `--` as the parser of a single run read them.
#[derive(Clone, Debug, Default)]
pub struct ParsedRunOptions {
    /// The words, as given.
    pub words: Vec<String>,
    /// The options given on the command line, in the parser's order.
    pub given: Vec<GivenOption>,
    /// `--game`, when given.
    pub game: Option<String>,
    /// The sandbox the options ask for, wherever they were given.
    pub sandbox: SandboxOptions,
}

/// An option the run options give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenOption {
    /// The parser's name for it (`bot_cmd`).
    pub id: String,
    /// How the user writes it (`--bot-cmd`; `a bot` for the bot itself).
    pub written: String,
}

/// The run options, refused when they set what grade decides, with the
/// paths made absolute against `cwd` and a bot's own protocheck.toml shut
/// out unless `--config` names one.
pub fn check(parsed: &ParsedRunOptions, cwd: &Path) -> Result<RunOptions, RunOptionsError> {
    let given_here = |id: &str| parsed.given.iter().any(|g| g.id == id);
    for (id, why) in SET_BY_GRADE {
        if let Some(option) = parsed.given.iter().find(|g| g.id == *id) {
            return Err(RunOptionsError::SetByGrade {
                written: option.written.clone(),
                why,
            });
        }
    }
    if given_here("games") && !given_here("seed") {
        return Err(RunOptionsError::GamesWithoutSeed);
    }
    let mut args = absolute_paths(&parsed.words, cwd);
    if !given_here("config") {
        // A bot's folder may hold a protocheck.toml of its author's: it
        // must not change what the bot is graded on.
        args.insert(0, "--no-config".into());
    }
    Ok(RunOptions {
        args,
        game: parsed.game.clone(),
        sandbox: parsed.sandbox.clone(),
    })
}

fn absolute_paths(given: &[String], cwd: &Path) -> Vec<String> {
    let absolute = |p: &str| cwd.join(p).display().to_string();
    let mut out = Vec::with_capacity(given.len());
    let mut words = given.iter();
    while let Some(word) = words.next() {
        if PATH_OPTIONS.contains(&word.as_str()) {
            out.push(word.clone());
            if let Some(value) = words.next() {
                out.push(absolute(value));
            }
        } else if let Some((name, value)) = word.split_once('=')
            && PATH_OPTIONS.contains(&name)
        {
            out.push(format!("{name}={}", absolute(value)));
        } else {
            out.push(word.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn grades_own_limit_flags_follow_the_run_options_once() {
        let given = words("--game kalah --memory-limit 2G --allow-read /data");
        let forwarded = with_limits(
            &given,
            &words("--sandbox off --allow-read /more --max-disk none"),
        )
        .unwrap();
        assert_eq!(
            forwarded,
            words(
                "--game kalah --memory-limit 2G --allow-read /data --sandbox off --allow-read /more --max-disk none"
            )
        );
        let e = with_limits(&given, &words("--memory-limit 1G"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "--memory-limit is given both before `--` and after it; give it once"
        );
        let e = with_limits(&words("--sandbox=off"), &words("--sandbox require"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--sandbox is given both"), "{e}");
        assert_eq!(
            RunOptionsError::GamesWithoutSeed.to_string(),
            "--games needs --seed in grade, so that every bot meets the same games (e.g. --games 20 --seed 2026)"
        );
    }
}
