//! The options of a single run that every bot is graded with (given after
//! `--`), checked by the same parser as a single run, with the ones grade
//! sets itself refused, and paths made absolute (each bot runs in its own
//! working folder).

use clap::CommandFactory;
use clap::parser::ValueSource;
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
const PATH_OPTIONS: &[&str] = &["--scenarios", "--config"];

/// The checked run options, ready to pass to every bot's protocheck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    pub args: Vec<String>,
    /// `--game`, when given (for the summary page).
    pub game: Option<String>,
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
    let mut args = absolute_paths(given, cwd);
    if !given_here("config") {
        // A bot's folder may hold a protocheck.toml of its author's: it
        // must not change what the bot is graded on.
        args.insert(0, "--no-config".into());
    }
    Ok(RunOptions { args, game })
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
