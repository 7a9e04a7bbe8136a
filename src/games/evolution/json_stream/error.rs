//! The reader's typed errors, so that a game can map each to its rule id.

/// Why the stream cannot yield another value. Errors are sticky: once one
/// is returned, every later call returns it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonStreamError {
    /// The stream was closed with nothing but whitespace left.
    Closed,
    /// The stream was closed in the middle of a value.
    Truncated { offset: u64 },
    /// Bytes that are not UTF-8 inside a string.
    InvalidUtf8 { offset: u64 },
    /// Nesting deeper than the limit.
    TooDeep { offset: u64, limit: usize },
    /// A value longer than the limit.
    TooBig { offset: u64, limit: usize },
    /// Non-JSON whitespace (BOM, form feed, vertical tab, NBSP, …) where a
    /// value may start.
    NonJsonWhitespace { offset: u64 },
    /// Bytes that are not JSON where a value must start or continue.
    Garbage { offset: u64, byte: u8 },
}

impl std::fmt::Display for JsonStreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JsonStreamError::Closed => write!(f, "the stream was closed"),
            JsonStreamError::Truncated { offset } => {
                write!(f, "the stream was closed inside a value (byte {offset})")
            }
            JsonStreamError::InvalidUtf8 { offset } => {
                write!(f, "invalid UTF-8 in a string at byte {offset}")
            }
            JsonStreamError::TooDeep { offset, limit } => {
                write!(f, "nested deeper than {limit} levels at byte {offset}")
            }
            JsonStreamError::TooBig { offset, limit } => {
                write!(
                    f,
                    "a value longer than {limit} bytes (starting at byte {offset})"
                )
            }
            JsonStreamError::NonJsonWhitespace { offset } => {
                write!(f, "non-JSON whitespace at byte {offset}")
            }
            JsonStreamError::Garbage { offset, byte } => {
                write!(f, "not JSON at byte {offset} (0x{byte:02x})")
            }
        }
    }
}

impl std::error::Error for JsonStreamError {}
