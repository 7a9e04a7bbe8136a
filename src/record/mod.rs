//! `protocheck record`: write a scenario by playing the engine's side
//! against a bot on a terminal (`interactive`), or from a transcript of an
//! earlier session (`transcript`). Either way the result is a scenario file
//! whose steps replay what happened, with every bot reply as an `expect:`
//! step; it is linted before it is reported as written.

pub mod command;
mod config;
pub mod interactive;
pub mod transcript;

pub use config::{RecordConfig, run};

use crate::games::Game;
use crate::scenario::{LoadError, Options};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Why `protocheck record` wrote no scenario, or wrote one that is wrong:
/// each the user's to fix (a usage error), but for a bug said as such.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{} exists (use --force to replace it)", .0.display())]
    OutputExists(PathBuf),
    /// The game refuses the options (its own words, as text).
    #[error("options: {0}")]
    Options(String),
    #[error("--bot-cmd: {0}")]
    BotCmd(#[source] shell_words::ParseError),
    #[error(
        "no bot given: protocheck record --game <GAME> <BOT> --output <FILE> (or --from-transcript <FILE>)"
    )]
    NoBot,
    #[error("--bot-cmd is empty")]
    EmptyBotCmd,
    #[error(transparent)]
    BotPath(#[from] crate::run::bot_path::BotPathError),
    /// `--sandbox require` without every layer.
    #[error(transparent)]
    Sandbox(#[from] crate::transport::sandbox::SandboxError),
    #[error("cannot start bot `{program}`: {source}")]
    Start {
        program: String,
        #[source]
        source: std::io::Error,
    },
    /// The run did not start (the scenario's options give no game): the
    /// controller's error of the run, as its report says it.
    #[error("{0}")]
    NotRun(String),
    #[error(transparent)]
    Transcript(#[from] transcript::TranscriptError),
    #[error("nothing was recorded, so {} was not written", .0.display())]
    NothingRecorded(PathBuf),
    #[error("{0}")]
    Yaml(#[source] serde_saphyr::ser::Error),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the recorded scenario does not load (a bug in protocheck record): {0}")]
    DoesNotLoad(#[source] LoadError),
    #[error(
        "the recorded scenario does not lint clean (a bug in protocheck record):\n{}",
        .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
    )]
    DoesNotLint(Vec<LoadError>),
}

/// Recorded steps, each with its comment for the file.
pub use crate::games::CommentedSteps;

/// A scenario as recorded: steps, each with a comment for the file (what
/// the bot replied, for an `expect:` step).
#[derive(Debug)]
pub struct Recorded {
    pub name: String,
    pub game: String,
    pub about: String,
    pub options: Options,
    pub steps: CommentedSteps,
}

#[derive(Serialize)]
struct Header<'a> {
    name: &'a str,
    game: &'a str,
    about: &'a str,
    options: &'a Options,
}

impl Recorded {
    /// The scenario file: the header and each step on its own line, with
    /// its comment.
    pub fn to_yaml(&self) -> Result<String, RecordError> {
        let mut text = serde_saphyr::to_string(&Header {
            name: &self.name,
            game: &self.game,
            about: &self.about,
            options: &self.options,
        })
        .map_err(RecordError::Yaml)?;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        if self.steps.is_empty() {
            text += "steps: []\n";
            return Ok(text);
        }
        text += "steps:\n";
        for (step, comment) in &self.steps {
            let item = serde_saphyr::to_string(&[step]).map_err(RecordError::Yaml)?;
            let item = item.trim_end_matches('\n');
            let mut lines = item.lines();
            let first = lines.next().unwrap_or("");
            text += "  ";
            text += first;
            if let Some(c) = comment {
                text += "  # ";
                text += &one_line(c);
            }
            text.push('\n');
            for rest in lines {
                text += "  ";
                text += rest;
                text.push('\n');
            }
        }
        Ok(text)
    }
}

/// A comment on one line: line ends shown as `⏎`, kept short.
fn one_line(text: &str) -> String {
    let mut s: String = text
        .replace("\r", "\\r")
        .split('\n')
        .collect::<Vec<_>>()
        .join(" ⏎ ");
    if s.chars().count() > 120 {
        s = s.chars().take(120).collect::<String>() + "…";
    }
    s
}

/// Write the scenario and check it as `protocheck lint` would; `Err` says
/// what is wrong (the file is written either way, to be looked at).
pub fn write_checked(path: &Path, recorded: &Recorded, game: &dyn Game) -> Result<(), RecordError> {
    if recorded.steps.is_empty() {
        // A scenario needs a step; an empty file would not load.
        return Err(RecordError::NothingRecorded(path.to_path_buf()));
    }
    let text = recorded.to_yaml()?;
    std::fs::write(path, &text).map_err(|source| RecordError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    let scenario = crate::scenario::load::load_file(path, Some(game.id()))
        .map_err(RecordError::DoesNotLoad)?;
    let errors = crate::suite::lint::lint(&scenario, game);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(RecordError::DoesNotLint(errors))
    }
}

/// A scenario name from the output file's name (`my-game.yaml` → `my-game`).
pub fn name_from_path(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        "recorded".into()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Expect, Step, Token};

    #[test]
    fn the_file_has_one_step_per_line_with_comments_and_loads_back() {
        let rec = Recorded {
            name: "rec".into(),
            game: "kalah".into(),
            about: "Recorded.".into(),
            options: Options::default(),
            steps: vec![
                (Step::Send("START;South".into()), None),
                (
                    Step::Expect(Expect::LegalMove),
                    Some("the bot replied MOVE;1\nx".into()),
                ),
                (Step::Opponent(Token("3".into())), None),
            ],
        };
        let text = rec.to_yaml().unwrap();
        assert!(
            text.contains("  - expect: legal-move  # the bot replied MOVE;1 ⏎ x\n"),
            "{text}"
        );
        let s = crate::scenario::load::parse(&text, "rec.yaml", None).unwrap();
        assert_eq!(s.steps.len(), 3);
        assert_eq!(s.steps[2].0, Step::Opponent(Token("3".into())));
    }

    #[test]
    fn record_errors_read_as_before_and_keep_their_cause() {
        let dir = std::env::temp_dir().join(format!("protocheck-rec-err-{}", std::process::id()));
        let rec = Recorded {
            name: "rec".into(),
            game: "kalah".into(),
            about: String::new(),
            options: Options::default(),
            steps: Vec::new(),
        };
        let game = crate::games::by_id("kalah").unwrap();
        let path = dir.join("x.yaml");
        assert_eq!(
            write_checked(&path, &rec, game).unwrap_err().to_string(),
            format!(
                "nothing was recorded, so {} was not written",
                path.display()
            )
        );
        let rec = Recorded {
            steps: vec![(Step::Send("START;South".into()), None)],
            ..rec
        };
        // The folder does not exist: the write fails with the system's cause.
        let e = write_checked(&path, &rec, game).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("cannot write {}: ", path.display())),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn names_come_from_the_file_name() {
        assert_eq!(name_from_path(Path::new("/x/my game.yaml")), "my-game");
        assert_eq!(name_from_path(Path::new("/")), "recorded");
    }
}
