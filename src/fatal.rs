//! protocheck's own trouble, as every command returns it to the command
//! line: always exit status 2 (`cli` maps it), each message on stderr after
//! `error: `. What kind of trouble it is stays typed up to there: the
//! command line, a grading platform's report of a bot that could not be
//! started (`run::reports::unstartable`) and `grade`'s check of its run
//! options each look at it.

use crate::scenario::LoadError;
use crate::transport::SpawnError;

/// protocheck's own trouble: always exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum Fatal {
    /// The command line (or a file it names) asks for what cannot be done.
    #[error("error: {0}")]
    Usage(#[from] UsageError),
    /// Scenario files that do not load or lint, every one.
    #[error("{}", ScenarioErrors(.0))]
    Scenarios(Vec<LoadError>),
    /// The bot cannot be started.
    #[error("error: {0}")]
    Bot(#[from] BotError),
    /// A file or folder protocheck needs cannot be read or written.
    #[error("error: {0}")]
    Io(#[from] IoError),
    /// protocheck's own fault (a game or a bot's grading that panicked),
    /// said as such.
    #[error("error: {0}")]
    Internal(String),
}

impl Fatal {
    /// A usage error in the command's own words.
    pub fn usage(message: impl Into<String>) -> Fatal {
        Fatal::Usage(UsageError::Said(message.into()))
    }

    /// `doing` failed with `source`: "cannot write grades.csv: …".
    pub fn io(doing: impl Into<String>, source: std::io::Error) -> Fatal {
        Fatal::Io(IoError::Os {
            doing: doing.into(),
            source,
        })
    }
}

/// What the command line asks that cannot be done; the text says what to
/// write instead.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    #[error("--game is required (one of: {known})")]
    GameRequired { known: String },
    #[error("unknown game `{name}`{hint}; known games: {known}")]
    UnknownGame {
        name: String,
        /// ` (did you mean `kalah`?)`, or nothing.
        hint: String,
        known: String,
    },
    #[error("no scenario selected (check --filter)")]
    NothingSelected,
    /// `grade`'s run options after `--` select no run a bot could make.
    #[error("the run options after `--`: {0}")]
    RunOptions(String),
    /// In the words of the command that found it.
    #[error("{0}")]
    Said(String),
}

/// Why the bot cannot be started.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// The program given is no program (`run::bot_path::BotPathError` says
    /// why; boxed, as `fatal` sits below `run`).
    #[error("{0}")]
    Program(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// No port for a bot over TCP.
    #[error("cannot listen on 127.0.0.1: {0}")]
    Listen(#[source] std::io::Error),
}

/// A file or folder protocheck cannot read or write.
#[derive(Debug, thiserror::Error)]
pub enum IoError {
    #[error("{doing}: {source}")]
    Os {
        /// What failed: "cannot write grades.csv".
        doing: String,
        #[source]
        source: std::io::Error,
    },
    /// In the words of the module that wrote it.
    #[error("{0}")]
    Said(String),
}

/// Every scenario error on its own `error: ` line.
struct ScenarioErrors<'a>(&'a [LoadError]);

impl std::fmt::Display for ScenarioErrors<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {e}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_error(message: &str) -> LoadError {
        LoadError {
            file: "s.yaml".into(),
            line: 3,
            column: 1,
            message: message.into(),
        }
    }

    /// The texts users read are those of the string errors before them.
    #[test]
    fn every_kind_reads_as_before() {
        assert_eq!(
            Fatal::usage("--games must be at least 1").to_string(),
            "error: --games must be at least 1"
        );
        assert_eq!(
            Fatal::from(UsageError::UnknownGame {
                name: "kalha".into(),
                hint: " (did you mean `kalah`?)".into(),
                known: "kalah, quoridor".into()
            })
            .to_string(),
            "error: unknown game `kalha` (did you mean `kalah`?); known games: kalah, quoridor"
        );
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        let said = missing.to_string();
        assert_eq!(
            Fatal::io("cannot write out/x.json", missing).to_string(),
            format!("error: cannot write out/x.json: {said}")
        );
        let refused = std::io::Error::from(std::io::ErrorKind::AddrInUse);
        let said = refused.to_string();
        assert_eq!(
            Fatal::from(BotError::Listen(refused)).to_string(),
            format!("error: cannot listen on 127.0.0.1: {said}")
        );
        assert_eq!(
            Fatal::Scenarios(vec![load_error("a"), load_error("b")]).to_string(),
            format!("error: {}\nerror: {}", load_error("a"), load_error("b"))
        );
    }

    /// Typed: a caller tells a bot that cannot start from bad input
    /// without reading the text, and the io error keeps its cause.
    #[test]
    fn the_kind_and_the_cause_stay_typed() {
        use std::error::Error;
        let e = Fatal::io("cannot create grades", std::io::Error::other("disk full"));
        let Fatal::Io(io) = &e else { panic!("{e:?}") };
        assert_eq!(
            io.source().map(|s| s.to_string()).as_deref(),
            Some("disk full")
        );
        assert!(matches!(
            Fatal::from(BotError::Program("x".into())),
            Fatal::Bot(_)
        ));
    }
}
