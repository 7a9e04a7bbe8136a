//! The options of a single run that every bot is graded with (given after
//! `--`), checked by the same parser as a single run, with the ones grade
//! sets itself refused, and paths made absolute (each bot runs in its own
//! working folder).

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches};
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
pub fn with_limits(given: &[String], words: &[String]) -> Result<Vec<String>, String> {
    for name in words.iter().filter(|w| w.starts_with("--")) {
        if name == "--allow-read" {
            continue;
        }
        let named = |w: &String| w == name || w.starts_with(&format!("{name}="));
        if given.iter().any(named) {
            return Err(format!(
                "{name} is given both before `--` and after it; give it once"
            ));
        }
    }
    Ok(given.iter().chain(words).cloned().collect())
}

pub fn check(given: &[String], cwd: &Path) -> Result<RunOptions, String> {
    let words = std::iter::once("protocheck".to_string()).chain(given.iter().cloned());
    let matches = crate::cli::Cli::command()
        .try_get_matches_from(words)
        .map_err(|e| {
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ");
            format!("the run options after `--` do not parse: {first}")
        })?;
    if matches.subcommand().is_some() {
        return Err("the run options after `--` name a subcommand; give only the options of a single run, e.g. -- --game kalah --games 20 --seed 7".into());
    }
    for (id, why) in SET_BY_GRADE {
        if matches.value_source(id) == Some(ValueSource::CommandLine) {
            let name = crate::cli::Cli::command()
                .get_arguments()
                .find(|a| a.get_id() == *id)
                .and_then(|a| a.get_long().map(|l| format!("--{l}")))
                .unwrap_or_else(|| "a bot".to_string());
            return Err(format!("{name} cannot be given to grade: {why}"));
        }
    }
    let given_here = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    if given_here("games") && !given_here("seed") {
        return Err("--games needs --seed in grade, so that every bot meets the same games (e.g. --games 20 --seed 2026)".into());
    }
    let game = matches.get_one::<String>("game").cloned();
    let sandbox = crate::cli::limit_flags::LimitFlags::from_arg_matches(&matches)
        .map_err(|e| format!("the run options after `--` do not parse: {e}"))?
        .sandbox_options();
    let mut args = absolute_paths(given, cwd);
    if !given_here("config") {
        // A bot's folder may hold a protocheck.toml of its author's: it
        // must not change what the bot is graded on.
        args.insert(0, "--no-config".into());
    }
    Ok(RunOptions {
        args,
        game,
        sandbox,
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
    fn selection_options_pass_with_paths_made_absolute() {
        let opts = check(
            &words("--game kalah --scenarios extra --scenarios=more/x.yaml --games 3 --seed 9"),
            Path::new("/course"),
        )
        .unwrap();
        assert_eq!(
            opts.args,
            words(
                "--no-config --game kalah --scenarios /course/extra --scenarios=/course/more/x.yaml --games 3 --seed 9"
            )
        );
        assert_eq!(opts.game.as_deref(), Some("kalah"));
    }

    #[test]
    fn options_grade_sets_itself_are_refused_with_the_reason() {
        for (given, named) in [
            ("--game kalah --format html", "--format"),
            ("--game kalah --output x.json", "--output"),
            ("--game kalah --jobs 4", "--jobs"),
            ("--game kalah ./bot", "a bot"),
            ("--game kalah --bot-cmd x", "--bot-cmd"),
            ("--game kalah --bot-time-limit 2m", "--bot-time-limit"),
        ] {
            let e = check(&words(given), Path::new("/")).unwrap_err();
            assert!(
                e.starts_with(&format!("{named} cannot be given to grade")),
                "{given}: {e}"
            );
        }
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
        let e = with_limits(&given, &words("--memory-limit 1G")).unwrap_err();
        assert!(e.starts_with("--memory-limit is given both"), "{e}");
        let e = with_limits(&words("--sandbox=off"), &words("--sandbox require")).unwrap_err();
        assert!(e.starts_with("--sandbox is given both"), "{e}");
    }

    #[test]
    fn the_sandbox_of_the_runs_is_read_from_the_options() {
        let opts = check(
            &words("--game kalah --sandbox off --max-disk 1G"),
            Path::new("/"),
        )
        .unwrap();
        assert_eq!(opts.sandbox.mode, crate::transport::sandbox::Mode::Off);
        assert_eq!(opts.sandbox.max_disk, Some(1 << 30));
        let opts = check(&words("--game kalah --allow-read ."), Path::new("/course")).unwrap();
        assert_eq!(
            opts.args,
            words("--no-config --game kalah --allow-read /course/.")
        );
    }

    #[test]
    fn generated_games_need_a_fixed_seed_and_bad_options_say_why() {
        let e = check(&words("--game kalah --games 5"), Path::new("/")).unwrap_err();
        assert!(e.contains("--games needs --seed"), "{e}");
        let e = check(&words("--game kalah --no-such-option"), Path::new("/")).unwrap_err();
        assert!(
            e.contains("do not parse") && e.contains("--no-such-option"),
            "{e}"
        );
    }
}
