//! The games' own options on the command line (`--holes`, `--board-size`,
//! `--players`, …), and so in `protocheck.toml`: one flag per option a game
//! lists in its options table, named as the option and described by it.
//! The core names none of them; the game checks the values.

use crate::games::{self, options::GameOptionValues};
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use serde_json::Value;

/// The game options given on the command line, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameFlags {
    pub values: GameOptionValues,
}

/// One flag: its name, its help (the games that take it and what the
/// option means), and whether it takes a whole number.
struct Flag {
    name: &'static str,
    help: String,
    integer: bool,
}

/// Every game's flags, in the order of `games::ALL`, each once.
fn flags() -> Vec<Flag> {
    let mut found: Vec<(Flag, Vec<&'static str>)> = Vec::new();
    for game in games::ALL {
        let facts = game.facts();
        let schema = facts.options.schema();
        for &name in facts.options.flags() {
            if let Some((_, titles)) = found.iter_mut().find(|(f, _)| f.name == name) {
                titles.push(facts.title);
                continue;
            }
            let property = schema.get("properties").and_then(|p| p.get(name));
            let text = |key: &str| property.and_then(|p| p.get(key)).and_then(Value::as_str);
            let integer = property.and_then(|p| p.get("type")).is_some_and(|t| {
                t == "integer"
                    || t.as_array()
                        .is_some_and(|a| a.contains(&Value::from("integer")))
            });
            let help = text("description").unwrap_or("").to_string();
            found.push((
                Flag {
                    name,
                    help,
                    integer,
                },
                vec![facts.title],
            ));
        }
    }
    found
        .into_iter()
        .map(|(mut flag, titles)| {
            // The description may already name its game ("Kalah: holes per side").
            if !titles
                .iter()
                .any(|t| flag.help.starts_with(&format!("{t}:")))
            {
                flag.help = format!("{}: {}", titles.join(", "), flag.help);
            }
            flag
        })
        .collect()
}

impl Args for GameFlags {
    fn augment_args(cmd: Command) -> Command {
        flags().into_iter().fold(cmd, |cmd, flag| {
            let arg = Arg::new(flag.name)
                .long(flag.name)
                .help(flag.help)
                .required(false)
                .num_args(1);
            let arg = if flag.integer {
                arg.value_name("N").value_parser(clap::value_parser!(u64))
            } else {
                arg.value_name("WORD")
            };
            cmd.arg(arg)
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for GameFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = GameFlags::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for flag in flags() {
            let value = if flag.integer {
                matches.get_one::<u64>(flag.name).map(|n| Value::from(*n))
            } else {
                matches
                    .get_one::<String>(flag.name)
                    .map(|s| Value::from(s.as_str()))
            };
            if let Some(value) = value {
                self.values.insert(flag.name.to_string(), value);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Probe {
        #[command(flatten)]
        game: GameFlags,
    }

    #[test]
    fn every_games_flags_are_on_the_command_line_and_reach_it_by_name() {
        let probe =
            Probe::try_parse_from(["p", "--holes", "6", "--board-size", "5", "--seat", "2"])
                .unwrap();
        let given: Vec<(&str, u64)> = probe
            .game
            .values
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_u64().unwrap()))
            .collect();
        assert_eq!(given, vec![("board-size", 5), ("holes", 6), ("seat", 2)]);
        let err = Probe::try_parse_from(["p", "--walls", "many"]).unwrap_err();
        assert!(err.to_string().contains("--walls <N>"), "{err}");
        // Each flag a game declares is on the command line once, in the
        // order the games first declare them (a new game's flags join
        // without this test naming them).
        let names: Vec<&str> = flags().iter().map(|f| f.name).collect();
        let mut declared: Vec<&str> = Vec::new();
        for game in crate::games::ALL {
            for flag in game.facts().options.flags() {
                if !declared.contains(flag) {
                    declared.push(flag);
                }
            }
        }
        assert_eq!(names, declared);
        assert_eq!(
            names[..6],
            ["holes", "seeds", "board-size", "walls", "players", "seat"]
        );
    }

    #[test]
    fn a_flag_shared_by_games_names_them_all_in_its_help() {
        let players = flags().into_iter().find(|f| f.name == "players").unwrap();
        assert!(
            players
                .help
                .starts_with("Dominion (S-expressions), Evolution, Dominion (text): "),
            "{}",
            players.help
        );
    }
}
