//! `protocheck.toml`: a bot repository's own settings, so that a bare
//! `protocheck` at its root (or in any folder below it) runs the right game,
//! bot, scenario folders and options. Options given on the command line
//! override the file.
//!
//! Every key is the name of a long option (`game`, `scenarios`, `timeout`,
//! `games`, `strict`, …) with the value the option would take; `bot` is the
//! bot program and `bot-args` its arguments. Relative paths (`bot` when it
//! names a path, `scenarios`, `save-failures`, `output`, `allow-read`) are taken from the
//! file's folder, so the file means the same wherever it is run from.
//!
//! The file is turned into command-line words, and clap parses those with
//! the user's own: one parser, one set of error messages, and no setting
//! that the command line cannot also express. A key or value the command
//! line would reject is reported at its file:line:col.

pub mod init;
pub mod platform;

use clap::CommandFactory;
use clap::parser::ValueSource;
use std::path::{Path, PathBuf};
use toml::de::{DeTable, DeValue};

/// The file name looked for in the current folder and its ancestors.
pub const FILE_NAME: &str = "protocheck.toml";

/// The name protocheck's wheel has on PyPI (`pyproject.toml`): the name
/// `protocheck` there belongs to an unrelated package, so `pip install
/// protocheck` would install something else. Both the `init` workflow and
/// the platforms' setup name it.
pub const PYPI_NAME: &str = "protocheck-harness";

/// Long options that make no sense in the file.
const NOT_IN_FILE: &[&str] = &["help", "version", "config", "no-config", "grading"];

/// Options whose value is a path, resolved against the file's folder.
const PATH_OPTIONS: &[&str] = &["scenarios", "save-failures", "output", "allow-read"];

/// A problem with the project file, located.
#[derive(Debug, PartialEq, Eq)]
pub struct ProjectError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ProjectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for ProjectError {}

/// Why `init` wrote nothing, or the project file cannot be applied.
#[derive(Debug, thiserror::Error)]
pub enum ProjectFileError {
    #[error(
        "{} already exist{}: not overwritten (use --force to replace)",
        .0.join(", "),
        if .0.len() == 1 { "s" } else { "" }
    )]
    Exists(Vec<String>),
    #[error("cannot {doing} {}{suffix}: {source}", path.display())]
    Files {
        /// `create`, `read`, `write` or `make … executable` (said after
        /// the path: `suffix`).
        doing: &'static str,
        path: PathBuf,
        suffix: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot tell the current folder: {0}")]
    CurrentFolder(#[source] std::io::Error),
    #[error(transparent)]
    Project(#[from] ProjectError),
}

/// `cannot {doing} {path}{suffix}: {source}` for an io error at `path`.
pub(crate) fn io_error(
    doing: &'static str,
    path: &Path,
    suffix: &'static str,
) -> impl FnOnce(std::io::Error) -> ProjectFileError {
    let path = path.to_path_buf();
    move |source| ProjectFileError::Files {
        doing,
        path,
        suffix,
        source,
    }
}

/// The project file for a run started in `dir`: the nearest `protocheck.toml`
/// in `dir` or an ancestor.
pub fn find(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|f| f.is_file())
}

/// The command line to run: `args` (program name first) with the settings
/// of the project file added, unless `--no-config` is given, a subcommand
/// runs, or there is no file. Arguments clap will reject come back
/// unchanged, for clap to report.
pub fn apply(args: Vec<String>) -> Result<Vec<String>, ProjectFileError> {
    let Ok(given) = crate::cli::Cli::command().try_get_matches_from(&args) else {
        return Ok(args);
    };
    if given.subcommand().is_some() || given.get_flag("no_config") {
        return Ok(args);
    }
    let file = match given.get_one::<PathBuf>("config") {
        Some(f) => f.clone(),
        None => {
            let here = std::env::current_dir().map_err(ProjectFileError::CurrentFolder)?;
            match find(&here) {
                Some(f) => f,
                None => return Ok(args),
            }
        }
    };
    let text = std::fs::read_to_string(&file).map_err(io_error("read", &file, ""))?;
    Ok(merge(&args, &file, &text)?)
}

/// The command line `args` (program name first) with the settings of the
/// project file `text` (read from `file`) added where `args` does not give
/// them.
pub fn merge(args: &[String], file: &Path, text: &str) -> Result<Vec<String>, ProjectError> {
    let at = |offset: usize, message: String| {
        let (line, column) = line_column(text, offset);
        ProjectError {
            file: file.to_path_buf(),
            line,
            column,
            message,
        }
    };
    let table = DeTable::parse(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        at(offset, e.message().trim().to_string())
    })?;
    let base = file.parent().unwrap_or(Path::new("."));
    let command = crate::cli::Cli::command();
    let given = command
        .clone()
        .try_get_matches_from(args)
        .map_err(|e| at(0, format!("the command line: {e}")))?;
    let (mut words, after_dashes) = split_at_dashes(args);
    let mut bot: Option<String> = None;
    let mut bot_args: Vec<String> = Vec::new();
    let on_command_line = |id: &str| given.value_source(id) == Some(ValueSource::CommandLine);
    for (key, value) in table.get_ref() {
        let name = key.get_ref().as_ref();
        let start = key.span().start;
        if name == "grading" {
            // The grading policy: read by the run from this file (checked
            // there, before any bot starts).
            if !matches!(value.get_ref(), DeValue::Table(_)) {
                return Err(at(
                    start,
                    "`grading` is a table: write `[grading]` and its keys below it".into(),
                ));
            }
            if !on_command_line("grading") {
                words.extend(["--grading".to_string(), file.display().to_string()]);
            }
            continue;
        }
        let values = flatten(value).map_err(|(offset, m)| at(offset, m))?;
        match name {
            "bot" => {
                let [(program, _)] = values.as_slice() else {
                    return Err(at(start, "`bot` is one program: a string".into()));
                };
                if !on_command_line("bot") && !on_command_line("bot_cmd") {
                    bot = Some(resolve_program(base, program));
                }
                continue;
            }
            "bot-args" => {
                if after_dashes.is_empty() {
                    bot_args = values.into_iter().map(|(v, _)| v).collect();
                }
                continue;
            }
            _ => {}
        }
        let arg = command
            .get_arguments()
            .find(|a| a.get_long() == Some(name) && !NOT_IN_FILE.contains(&name));
        let Some(arg) = arg else {
            let known = command
                .get_arguments()
                .filter_map(|a| a.get_long())
                .filter(|l| !NOT_IN_FILE.contains(l))
                .chain(["bot", "bot-args"]);
            let hint = known
                .map(|k| (strsim::levenshtein(k, name), k))
                .filter(|(d, _)| *d <= 2)
                .min()
                .map(|(_, k)| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            return Err(at(
                start,
                format!(
                    "`{name}` is not a protocheck setting{hint}: keys are long option names, e.g. game, scenarios, timeout"
                ),
            ));
        };
        if on_command_line(arg.get_id().as_str()) {
            continue;
        }
        let flag = !arg.get_action().takes_values();
        for (value, offset) in values {
            let mut pair = vec![format!("--{name}")];
            if flag {
                match value.as_str() {
                    "true" => {}
                    "false" => continue,
                    _ => return Err(at(offset, format!("`{name}` is a switch: true or false"))),
                }
            } else if PATH_OPTIONS.contains(&name) {
                pair.push(base.join(&value).display().to_string());
            } else if name == "report"
                && let Some((kind, path)) = value.split_once('=')
            {
                // `report = ["json=out/r.json"]`: the file from the file's folder.
                pair.push(format!("{kind}={}", base.join(path).display()));
            } else {
                pair.push(value);
            }
            // Each setting alone, so a bad value is reported where it is.
            let mut alone = vec![args[0].clone()];
            alone.extend(pair.iter().cloned());
            if let Err(e) = command.clone().try_get_matches_from(&alone) {
                let why = e.to_string();
                let why = why
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("error: ");
                return Err(at(offset, why.to_string()));
            }
            words.extend(pair);
        }
    }
    if let Some(bot) = bot {
        words.push(bot);
    }
    let dashes = if after_dashes.is_empty() {
        bot_args
    } else {
        after_dashes
    };
    if !dashes.is_empty() {
        words.push("--".into());
        words.extend(dashes);
    }
    Ok(words)
}

/// `args` before `--` (program name included), and the bot's arguments
/// after it.
fn split_at_dashes(args: &[String]) -> (Vec<String>, Vec<String>) {
    match args.iter().position(|a| a == "--") {
        Some(i) => (args[..i].to_vec(), args[i + 1..].to_vec()),
        None => (args.to_vec(), Vec::new()),
    }
}

/// A bot named by path (it has a `/`) is taken from the file's folder; a
/// bare command name is looked up on PATH as usual.
fn resolve_program(base: &Path, program: &str) -> String {
    if program.contains('/') {
        base.join(program).display().to_string()
    } else {
        program.to_string()
    }
}

/// A setting's value as command-line words, each with its offset: a string,
/// number or boolean is one word, an array one word per element.
fn flatten(value: &toml::Spanned<DeValue>) -> Result<Vec<(String, usize)>, (usize, String)> {
    let offset = value.span().start;
    let word = |v: &DeValue| -> Result<String, String> {
        Ok(match v {
            DeValue::String(s) => s.to_string(),
            DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
                .map_err(|_| "a number out of range".to_string())?
                .to_string(),
            DeValue::Float(f) => f.as_str().to_string(),
            DeValue::Boolean(b) => b.to_string(),
            DeValue::Datetime(_) => return Err("a date is not an option value".into()),
            DeValue::Array(_) | DeValue::Table(_) => {
                return Err("expected a string, number or boolean here".into());
            }
        })
    };
    match value.get_ref() {
        DeValue::Array(items) => items
            .iter()
            .map(|item| {
                word(item.get_ref())
                    .map(|w| (w, item.span().start))
                    .map_err(|m| (item.span().start, m))
            })
            .collect(),
        DeValue::Table(_) => Err((
            offset,
            "tables are not settings: write `key = value` at the top of the file".into(),
        )),
        other => word(other)
            .map(|w| vec![(w, offset)])
            .map_err(|m| (offset, m)),
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        std::iter::once("protocheck")
            .chain(words.iter().copied())
            .map(String::from)
            .collect()
    }

    fn merged(cli: &[&str], text: &str) -> Result<Vec<String>, ProjectError> {
        merge(&args(cli), Path::new("/repo/protocheck.toml"), text)
    }

    #[test]
    fn settings_become_options_with_paths_from_the_file_folder() {
        let words = merged(
            &[],
            "game = \"kalah\"\nbot = \"./target/release/my-bot\"\nbot-args = [\"--depth\", \"3\"]\nscenarios = [\"tests/a\", \"tests/b\"]\ntimeout = \"2s\"\ngames = 20\nstrict = true\nverbose = false\n",
        )
        .unwrap();
        assert_eq!(
            words.join(" "),
            "protocheck --game kalah --games 20 --scenarios /repo/tests/a --scenarios /repo/tests/b --strict --timeout 2s /repo/./target/release/my-bot -- --depth 3"
        );
    }

    #[test]
    fn a_folder_to_allow_is_taken_from_the_file_folder() {
        let repo = std::env::temp_dir().join(format!("protocheck-project-{}", std::process::id()));
        std::fs::create_dir_all(repo.join("data")).unwrap();
        let file = repo.join(FILE_NAME);
        let words = merge(&args(&[]), &file, "allow-read = [\"data\"]\n").unwrap();
        assert_eq!(
            words[1..],
            [
                "--allow-read".to_string(),
                repo.join("data").display().to_string()
            ]
        );
        let err = merge(&args(&[]), &file, "allow-read = [\"missing\"]\n").unwrap_err();
        assert!(err.message.contains("no such file or folder"), "{err}");
        let _ = std::fs::remove_dir_all(&repo);
    }

    #[test]
    fn the_command_line_wins() {
        let words = merged(
            &["--game", "quoridor", "--timeout", "5s", "./other", "--", "-x"],
            "game = \"kalah\"\nbot = \"my-bot\"\nbot-args = [\"--depth\"]\ntimeout = \"2s\"\nseed = 7\n",
        )
        .unwrap();
        assert_eq!(
            words.join(" "),
            "protocheck --game quoridor --timeout 5s ./other --seed 7 -- -x"
        );
        let words = merged(&["--bot-cmd", "python3 b.py"], "bot = \"./b\"\n").unwrap();
        assert_eq!(words.join(" "), "protocheck --bot-cmd python3 b.py");
    }

    #[test]
    fn mistakes_are_located() {
        let err = merged(&[], "game = \"kalah\"\n\ntimout = \"2s\"\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, 1));
        assert!(err.message.contains("did you mean `timeout`?"), "{err}");
        let err = merged(&[], "game = \"kalah\"\ntimeout = \"soon\"\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 11));
        assert!(err.message.contains("soon"), "{err}");
        let err = merged(&[], "strict = \"yes\"\n").unwrap_err();
        assert!(err.message.contains("a switch"), "{err}");
        let err = merged(&[], "game = \"kalah\n").unwrap_err();
        assert_eq!(err.line, 1, "{err}");
        let err = merged(&[], "[options]\ngame = \"kalah\"\n").unwrap_err();
        assert!(err.message.contains("tables are not settings"), "{err}");
        assert_eq!(
            err.to_string().split(": ").next(),
            Some("/repo/protocheck.toml:1:1")
        );
    }

    #[test]
    fn a_games_own_options_are_settings_too() {
        let words = merged(&[], "game = \"quoridor\"\nboard-size = 7\nwalls = 8\n").unwrap();
        assert_eq!(
            words.join(" "),
            "protocheck --board-size 7 --game quoridor --walls 8"
        );
        let err = merged(&[], "game = \"kalah\"\nholes = \"many\"\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 9), "{err}");
        assert!(err.message.contains("many"), "{err}");
    }

    #[test]
    fn the_nearest_file_up_the_tree_is_found() {
        let root = std::env::temp_dir().join(format!("protocheck-project-{}", std::process::id()));
        let deep = root.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(find(&deep).filter(|f| f.starts_with(&root)), None);
        std::fs::write(root.join(FILE_NAME), "game = \"kalah\"\n").unwrap();
        assert_eq!(find(&deep), Some(root.join(FILE_NAME)));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
