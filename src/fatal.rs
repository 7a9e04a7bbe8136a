//! protocheck's own trouble, as every command returns it to the command
//! line: always exit status 2 (`cli` maps it), the message on stderr.

use crate::scenario::LoadError;

/// protocheck's own trouble: always exit status 2.
#[derive(Debug)]
pub enum Fatal {
    Usage(String),
    Scenarios(Vec<LoadError>),
    Bot(String),
    Io(String),
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fatal::Usage(m) | Fatal::Bot(m) | Fatal::Io(m) => write!(f, "error: {m}"),
            Fatal::Scenarios(errors) => {
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "error: {e}")?;
                }
                Ok(())
            }
        }
    }
}
