//! The environment a bot starts with, decided in one place for every way
//! protocheck starts a bot (a single run, `record`, each bot's protocheck
//! under `grade`, `match`, `tournament`).
//!
//! A verdict must not depend on who runs protocheck, and a bot must not
//! read the grader's secrets. Docker images, IDE terminals and CI runners
//! set variables such as `PYTHONUNBUFFERED=1` (passed on, it makes a Python
//! bot that never flushes pass on one machine and time out on the course
//! server) and `CI_JOB_TOKEN`, `GITHUB_TOKEN` or `AWS_SECRET_ACCESS_KEY`.
//! So by default a bot gets a fixed, documented environment (issue 27):
//! from protocheck's environment only what [`lists::ALLOWED`] and
//! [`lists::LOCATORS`] name (`PATH`, `HOME`, the locale, toolchain
//! locators, …), never an I/O switch ([`IO_SWITCHES`]); `--pass-env NAME`
//! adds one of protocheck's variables on purpose (`NAME*` those with a
//! prefix, `*` all but the I/O switches: the environment before issue 27),
//! and `--env NAME=VALUE` sets one. The report lists the names
//! ([`EnvNote`]).
//!
//! Besides what the policy decides, the launcher adds the game's own
//! variables (`PROTOCHECK_PORT`, [`BotEnv::game`]) and the tag that finds
//! a bot's escaped processes (`PROTOCHECK_BOT`, see [`super::tag`]).

mod lists;
mod note;

pub use lists::{ALLOWED, Allowed, IO_SWITCHES, IoSwitch, LOCATORS, allowed, io_switch};
pub use note::{EnvNote, NoteBase};

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::process::Command;

/// The run's policy: one for every bot the run starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvPolicy {
    /// `--pass-env NAME`: kept from protocheck's environment whatever the
    /// fixed environment leaves out (nothing when protocheck's environment
    /// lacks it). `NAME*` keeps every name with that prefix and `*` all of
    /// them; a pattern never brings an I/O switch, only its own name does.
    pub pass: Vec<String>,
    /// `--env NAME=VALUE`, over protocheck's own value.
    pub set: Vec<(String, String)>,
}

/// Why a variable of protocheck's environment reaches a bot, or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// In the fixed environment.
    Allowed,
    /// `--pass-env '*'`: protocheck's environment as before issue 27.
    Whole,
    /// Named by `--pass-env` (or matched by its pattern).
    Passed,
    /// Left out.
    Out,
}

impl EnvPolicy {
    /// `--pass-env '*'`: the bots get protocheck's environment without the
    /// I/O switches, as before the fixed environment.
    fn whole(&self) -> bool {
        self.pass.iter().any(|p| p == "*")
    }

    fn source(&self, name: &OsStr) -> Source {
        let Some(name) = name.to_str() else {
            // A name that is not UTF-8 is none of ours and no pattern's.
            return if self.whole() {
                Source::Whole
            } else {
                Source::Out
            };
        };
        if self.pass.iter().any(|p| p == name) {
            Source::Passed
        } else if io_switch(name).is_some() {
            Source::Out
        } else if allowed(name) {
            Source::Allowed
        } else if self.whole() {
            Source::Whole
        } else if self.pass.iter().any(|p| lists::matches(p, name)) {
            Source::Passed
        } else {
            Source::Out
        }
    }

    /// The whole environment a bot gets, from protocheck's `inherited`
    /// one (the game's variables not included).
    pub fn environment(
        &self,
        inherited: impl IntoIterator<Item = (OsString, OsString)>,
    ) -> BTreeMap<OsString, OsString> {
        let mut env: BTreeMap<OsString, OsString> = inherited
            .into_iter()
            .filter(|(name, _)| self.source(name) != Source::Out)
            .collect();
        for (name, value) in &self.set {
            env.insert(name.into(), value.into());
        }
        env
    }

    /// What the report says, for protocheck's `inherited` environment and
    /// the names of the game's own variables (`game`).
    pub fn note(
        &self,
        inherited: impl IntoIterator<Item = (OsString, OsString)>,
        game: &[&str],
    ) -> EnvNote {
        let mut names: Vec<OsString> = inherited.into_iter().map(|(name, _)| name).collect();
        names.sort();
        names.dedup();
        let set = |name: &OsStr| self.set.iter().any(|(n, _)| OsStr::new(n) == name);
        // The game's variables and the launcher's tag are set over
        // protocheck's own (a `grade` bot's protocheck has a tag itself):
        // not left out, not kept.
        let game_var = |name: &OsStr| {
            name == super::tag::TAG_VAR || game.iter().any(|g| OsStr::new(g) == name)
        };
        let named = |source: Source| -> Vec<String> {
            names
                .iter()
                .filter(|n| self.source(n) == source && !set(n) && !game_var(n))
                .map(|n| n.to_string_lossy().into_owned())
                .collect()
        };
        let (base, kept) = if self.whole() {
            (NoteBase::Inherited, Vec::new())
        } else {
            let mut kept = named(Source::Allowed);
            // The fixed environment in its documented order: PATH, HOME, …
            kept.sort_by_key(|n| {
                ALLOWED
                    .iter()
                    .chain(LOCATORS)
                    .position(|a| lists::matches(a.name, n))
            });
            (NoteBase::Clean, kept)
        };
        // The names `--pass-env` brought, in the order of the flags.
        let passed_names = named(Source::Passed);
        let mut passed: Vec<String> = Vec::new();
        for pattern in &self.pass {
            for name in passed_names.iter().filter(|n| lists::matches(pattern, n)) {
                if !passed.contains(name) {
                    passed.push(name.clone());
                }
            }
        }
        EnvNote {
            base,
            kept,
            game: game.iter().map(|g| g.to_string()).collect(),
            removed: named(Source::Out),
            passed,
            set: once_each(self.set.iter().map(|(n, _)| n)),
        }
    }

    /// The note for protocheck's own environment now, with the names of
    /// the game's own variables (`game`).
    pub fn note_here(&self, game: &[&str]) -> EnvNote {
        self.note(std::env::vars_os(), game)
    }

    /// The policy as command-line words (`--pass-env NAME`, `--env
    /// NAME=VALUE`), for the commands a report prints to run a bot again.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        for name in &self.pass {
            words.extend(["--pass-env".to_string(), name.clone()]);
        }
        for (name, value) in &self.set {
            words.extend(["--env".to_string(), format!("{name}={value}")]);
        }
        words
    }
}

/// The names in their first order, each once.
fn once_each<'a>(names: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

/// The names of the variables protocheck itself sets for each bot of a
/// game that travels over `transport` (for the report; the values are set
/// per bot start, [`BotEnv::game`]).
pub fn game_variables(transport: crate::transport::Transport) -> &'static [&'static str] {
    match transport {
        crate::transport::Transport::Stdio => &[],
        crate::transport::Transport::Tcp => &[super::tcp_connection::PORT_VAR],
    }
}

/// One bot's environment: the run's policy and the game's own variables
/// for this bot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotEnv {
    pub policy: EnvPolicy,
    /// The game's variables (Evolution: `PROTOCHECK_PORT`), set last: a
    /// user's `--env` cannot move the port protocheck listens on.
    pub game: Vec<(String, String)>,
}

impl BotEnv {
    /// The whole environment, from protocheck's `inherited` one.
    pub fn environment(
        &self,
        inherited: impl IntoIterator<Item = (OsString, OsString)>,
    ) -> BTreeMap<OsString, OsString> {
        let mut env = self.policy.environment(inherited);
        for (name, value) in &self.game {
            env.insert(name.into(), value.into());
        }
        env
    }

    /// Give `command` this environment. Written as removals and settings
    /// over protocheck's own (not `env_clear`), which both the standard
    /// library and `vfork_spawn` read from the command.
    pub fn apply(&self, command: &mut Command) {
        let inherited: Vec<(OsString, OsString)> = std::env::vars_os().collect();
        let env = self.environment(inherited.iter().cloned());
        for (name, _) in &inherited {
            if !env.contains_key(name) {
                command.env_remove(name);
            }
        }
        for (name, value) in env {
            if !inherited.iter().any(|(n, v)| *n == name && *v == value) {
                command.env(name, value);
            }
        }
    }
}

/// Why an `--env` or `--pass-env` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvFlagError {
    /// `--env` without a `=`.
    #[error("`{text}` is not NAME=VALUE")]
    NotASetting { text: String },
    #[error("`{name}` is not a variable name (non-empty, without `=` or `*`)")]
    NotAName { name: String },
    #[error("a value cannot hold a NUL byte")]
    NulInValue { name: String },
    /// `--pass-env` that is no name, `PREFIX*` or `*`.
    #[error("`{pattern}` is not a variable name, a prefix followed by `*`, or `*`")]
    NotAPattern { pattern: String },
}

/// `--env NAME=VALUE`.
pub fn parse_setting(text: &str) -> Result<(String, String), EnvFlagError> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| EnvFlagError::NotASetting {
            text: text.to_string(),
        })?;
    parse_name(name)?;
    if value.contains('\0') {
        return Err(EnvFlagError::NulInValue {
            name: name.to_string(),
        });
    }
    Ok((name.to_string(), value.to_string()))
}

/// A variable's name (`--env NAME=VALUE`).
pub fn parse_name(name: &str) -> Result<String, EnvFlagError> {
    if name.is_empty() || name.contains(['=', '\0', '*']) {
        return Err(EnvFlagError::NotAName {
            name: name.to_string(),
        });
    }
    Ok(name.to_string())
}

/// `--pass-env NAME`, `NAME*` (every name with that prefix) or `*` (all of
/// protocheck's environment but the I/O switches).
pub fn parse_pass(pattern: &str) -> Result<String, EnvFlagError> {
    let name = pattern.strip_suffix('*').unwrap_or(pattern);
    if name.is_empty() && !pattern.is_empty() {
        return Ok(pattern.to_string());
    }
    parse_name(name).map_err(|_| EnvFlagError::NotAPattern {
        pattern: pattern.to_string(),
    })?;
    Ok(pattern.to_string())
}

#[cfg(test)]
mod tests;
