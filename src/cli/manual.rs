//! `protocheck completions <SHELL>` and `protocheck man`: generated from the
//! clap definition in [`crate::cli`], so they never drift from the options
//! the binary really takes.

use clap::CommandFactory;

/// The completion script for `shell`, to be sourced or installed where the
/// shell looks for completions.
pub fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut command = with_game_names(crate::cli::Cli::command());
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "protocheck", &mut out);
    out
}

/// Every `--game` (of the run and of each subcommand) with the registered
/// game names at the end of its help, so no help text lists them by hand
/// and a new game in `games::ALL` shows up everywhere.
pub fn with_game_list(command: clap::Command) -> clap::Command {
    map_game_args(command, |arg| {
        let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
        let list = crate::games::ids().join(", ");
        arg.help(format!("{help} [games: {list}]"))
    })
}

/// `change` applied to every `--game` of the run and of each subcommand.
fn map_game_args(command: clap::Command, change: fn(clap::Arg) -> clap::Arg) -> clap::Command {
    fn has_game(command: &clap::Command) -> bool {
        command.get_arguments().any(|a| a.get_id() == "game")
    }
    let mut command = if has_game(&command) {
        command.mut_arg("game", change)
    } else {
        command
    };
    let names: Vec<String> = command
        .get_subcommands()
        .filter(|sub| has_game(sub))
        .map(|sub| sub.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, |sub| sub.mut_arg("game", change));
    }
    command
}

/// Every `--game` (of the run and of each subcommand) offered with the
/// registered game names. Only the completion scripts get them: parsing
/// keeps its own check, whose error names the nearest game.
fn with_game_names(command: clap::Command) -> clap::Command {
    map_game_args(command, |arg| {
        arg.value_parser(clap::builder::PossibleValuesParser::new(crate::games::ids()))
    })
}

/// The man page (roff) of protocheck and its subcommands, one page: the
/// top-level page with a section per subcommand, so `man ./protocheck.1`
/// shows everything.
pub fn man_page() -> std::io::Result<Vec<u8>> {
    let command = with_game_list(crate::cli::Cli::command());
    let mut out = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("protocheck {}", sub.get_name());
        let sub = sub
            .clone()
            .name(name.clone())
            .display_name(format!("protocheck-{}", sub.get_name()));
        // A subcommand's page without its own .TH header, as a section of
        // the main page.
        let mut section = Vec::new();
        let man = clap_mangen::Man::new(sub);
        man.render_name_section(&mut section)?;
        man.render_synopsis_section(&mut section)?;
        man.render_description_section(&mut section)?;
        man.render_options_section(&mut section)?;
        out.extend(rename_sections(&section, &name));
    }
    Ok(out)
}

/// Turn a subcommand's `.SH NAME`, `.SH SYNOPSIS`… into `.SS` subsections
/// under one `.SH "protocheck lint"` heading.
fn rename_sections(roff: &[u8], name: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(roff);
    let mut out = format!(".SH \"{}\"\n", name.to_uppercase());
    for line in text.lines() {
        match line.strip_prefix(".SH ") {
            Some("NAME") => continue,
            Some(title) => out += &format!(".SS {title}\n"),
            None => {
                out += line;
                out.push('\n');
            }
        }
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The run's `--game` and every subcommand's (match, tournament, …)
    /// name all the registered games in their help, none left out.
    #[test]
    fn every_game_option_names_every_game_in_its_help() {
        let command = with_game_list(crate::cli::Cli::command());
        let list = format!("[games: {}]", crate::games::ids().join(", "));
        let mut seen = Vec::new();
        for cmd in std::iter::once(&command).chain(command.get_subcommands()) {
            if let Some(game) = cmd.get_arguments().find(|a| a.get_id() == "game") {
                let help = game.get_help().map(|h| h.to_string()).unwrap_or_default();
                assert!(help.ends_with(&list), "{}: {help}", cmd.get_name());
                seen.push(cmd.get_name().to_string());
            }
        }
        for name in ["protocheck", "match", "tournament"] {
            assert!(
                seen.iter().any(|s| s == name),
                "{name} has no --game: {seen:?}"
            );
        }
    }

    #[test]
    fn completions_offer_every_option_and_subcommand() {
        let bash = String::from_utf8(completions(clap_complete::Shell::Bash)).unwrap();
        for word in [
            "--game",
            "--partition",
            "--scenarios",
            "lint",
            "schema",
            "man",
        ] {
            assert!(bash.contains(word), "bash completion lacks {word}");
        }
        let zsh = String::from_utf8(completions(clap_complete::Shell::Zsh)).unwrap();
        // The value list of `--game`, as each shell writes it.
        let names = crate::games::ids().join(" ");
        assert!(
            bash.contains(&format!("-W \"{names}\"")),
            "bash completion does not offer the games"
        );
        assert!(
            zsh.contains(&format!("({names})")),
            "zsh completion does not offer the games"
        );
        assert!(zsh.starts_with("#compdef protocheck"), "{}", &zsh[..40]);
    }

    #[test]
    fn the_man_page_documents_options_and_subcommands() {
        let page = String::from_utf8(man_page().unwrap()).unwrap();
        assert!(page.starts_with(".ie \\n(.g .ds Aq") || page.contains(".TH protocheck"));
        assert!(page.contains(".TH protocheck"), "no title header");
        assert!(page.contains("\\-\\-partition"), "options missing");
        assert!(
            page.contains(".SH \"PROTOCHECK LINT\""),
            "subcommands missing"
        );
    }
}
