//! Why a scenario file cannot be used, where in it (file, line, column):
//! below both the loader and the options check, which report it.

use super::model::Span;

/// A scenario file that cannot be used. Always maps to exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    pub fn new(file: &str, span: &Span, message: impl Into<String>) -> LoadError {
        LoadError {
            file: file.to_string(),
            line: span.line,
            column: span.column,
            message: message.into(),
        }
    }
}
