//! What the report says about the bots' environment ([`EnvNote`]): names
//! only, never a value (a value may be a secret).

use serde::{Deserialize, Serialize};

/// Where the bots' environment started from, as the report says it.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum NoteBase {
    /// protocheck's whole environment without the I/O switches: `--pass-env
    /// '*'`, and every report written before the clean environment (a
    /// report without `base` reads as this, which is what its bots got).
    #[default]
    Inherited,
    /// The fixed, documented environment (docs/environment.md).
    Clean,
}

/// What the report says about the bots' environment.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EnvNote {
    #[serde(default)]
    pub base: NoteBase,
    /// The variables of the fixed environment protocheck's environment had
    /// and the bots got (clean base only).
    #[serde(default)]
    pub kept: Vec<String>,
    /// The game's own variables, set by protocheck for each bot
    /// (Evolution: `PROTOCHECK_PORT`).
    #[serde(default)]
    pub game: Vec<String>,
    /// Variables of protocheck's environment the bots did not get.
    #[serde(default)]
    pub removed: Vec<String>,
    /// `--pass-env`: kept on purpose (those protocheck's environment has).
    #[serde(default)]
    pub passed: Vec<String>,
    /// `--env`: set for every bot.
    #[serde(default)]
    pub set: Vec<String>,
}

/// How many names a human line shows of a long list.
const SHOWN: usize = 3;

impl EnvNote {
    /// Nothing removed, passed or set: the bots got what protocheck's own
    /// environment holds of their base.
    pub fn is_plain(&self) -> bool {
        self.removed.is_empty() && self.passed.is_empty() && self.set.is_empty()
    }

    /// One line for the human reports, `None` when there is nothing to say.
    pub fn line(&self) -> Option<String> {
        if self.is_plain() {
            return None;
        }
        let mut parts = match self.base {
            NoteBase::Inherited => self.inherited_parts(),
            NoteBase::Clean => self.clean_parts(),
        };
        if !self.passed.is_empty() {
            parts.push(format!(
                "kept on purpose: {}",
                shortened(&self.passed, self.passed.len())
            ));
        }
        if !self.set.is_empty() {
            parts.push(format!("set with --env: {}", self.set.join(", ")));
        }
        Some(format!("bot environment: {}", parts.join("; ")))
    }

    /// protocheck's environment without the I/O switches that were in it.
    fn inherited_parts(&self) -> Vec<String> {
        match self.removed.as_slice() {
            [] => Vec::new(),
            [one] => vec![format!(
                "{one} left out (it changes how a runtime buffers, encodes or adds to its output; --pass-env {one} keeps it)"
            )],
            many => vec![format!(
                "{} left out (they change how a runtime buffers, encodes or adds to its output; --pass-env NAME keeps one)",
                many.join(", ")
            )],
        }
    }

    /// The fixed environment, and how many of protocheck's variables it
    /// left out, the most telling named first.
    fn clean_parts(&self) -> Vec<String> {
        let mut got = if self.kept.is_empty() {
            "nothing of protocheck's".to_string()
        } else {
            self.kept.join(", ")
        };
        if !self.game.is_empty() {
            got = format!("{got} + {}", self.game.join(", "));
        }
        let mut parts = vec![format!("clean ({got})")];
        match self.removed.as_slice() {
            [] => {}
            [one] => parts.push(format!("{one} left out (--pass-env {one} keeps it)")),
            many => {
                let mut telling: Vec<&String> = many.iter().collect();
                telling.sort_by_key(|n| (telling_rank(n), n.as_str()));
                let shown: Vec<String> = telling.into_iter().cloned().collect();
                parts.push(format!(
                    "{} of protocheck's variables left out ({}; --pass-env NAME keeps one)",
                    many.len(),
                    shortened(&shown, many.len())
                ));
            }
        }
        parts
    }
}

/// The first [`SHOWN`] names, and `…` when there are more of `all`.
fn shortened(names: &[String], all: usize) -> String {
    let mut text = names
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if all > SHOWN {
        text.push_str(", …");
    }
    text
}

/// Which left-out names a short line shows first: the I/O switches (they
/// can decide a verdict), then names that look like secrets (what a reader
/// wants to know stayed out), then `CI`, then the rest.
fn telling_rank(name: &str) -> u8 {
    const SECRET_WORDS: &[&str] = &[
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "CREDENTIAL",
        "API_KEY",
        "ACCESS_KEY",
        "PRIVATE_KEY",
        "AUTH",
    ];
    if super::io_switch(name).is_some() {
        0
    } else if name.starts_with("AWS_") || SECRET_WORDS.iter().any(|w| name.contains(w)) {
        1
    } else if name == "CI" {
        2
    } else {
        3
    }
}
