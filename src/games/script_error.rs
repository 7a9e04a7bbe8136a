//! The error of a scenario that asks what the rules or the protocol do
//! not allow: the scenario is wrong, not the bot.

/// A scenario that contradicts the rules or the protocol (exit 2): the
/// scenario is wrong, not the bot. The text says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ScriptError(pub String);

impl From<String> for ScriptError {
    fn from(message: String) -> Self {
        ScriptError(message)
    }
}

impl From<&str> for ScriptError {
    fn from(message: &str) -> Self {
        ScriptError(message.into())
    }
}

/// Its text, as tests and hints read it (`e.contains("engine's turn")`).
impl std::ops::Deref for ScriptError {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// Where a scenario error becomes a message (a lint finding, a report's
/// scenario error), its text.
impl From<ScriptError> for String {
    fn from(error: ScriptError) -> Self {
        error.0
    }
}
