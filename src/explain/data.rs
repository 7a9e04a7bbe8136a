//! The explanation files: one per game (`src/games/<game>/explain.txt`) and
//! one for the harness rules every game shares (`harness.txt`).
//!
//! Format, one entry per rule:
//! ```text
//! == kalah.move.empty-hole
//! why: The reference engine refuses … (continues on following lines)
//! wrong:
//! > START;South          (protocheck sends)
//! < MOVE;8               (the bot replies)
//! # no reply within 10 s (a note, as in the reports' transcripts)
//! right:
//! > START;South
//! < MOVE;3
//! ```
//! Lines starting with `;;` are comments.

use serde::Serialize;

/// The key of the shared harness table.
pub const HARNESS: &str = "harness";

/// (game id, text) of every explanation file: each game's own
/// (`GameFacts::explain`, in the order of `games::ALL`), then the harness's.
pub fn sources() -> Vec<(&'static str, &'static str)> {
    crate::games::ALL
        .iter()
        .map(|g| (g.id(), g.facts().explain))
        .chain([(HARNESS, include_str!("harness.txt"))])
        .collect()
}

/// One line of an example exchange.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "dir", content = "text", rename_all = "lowercase")]
pub enum Line {
    /// protocheck to the bot (`>`).
    Sent(String),
    /// The bot to protocheck (`<`).
    Received(String),
    /// What happens besides messages (`#`): a timeout, an exit.
    Note(String),
}

impl Line {
    pub fn mark(&self) -> char {
        match self {
            Line::Sent(_) => '>',
            Line::Received(_) => '<',
            Line::Note(_) => '#',
        }
    }
    pub fn text(&self) -> &str {
        match self {
            Line::Sent(t) | Line::Received(t) | Line::Note(t) => t,
        }
    }
}

/// The explanation of one rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub id: String,
    pub why: String,
    pub wrong: Vec<Line>,
    pub right: Vec<Line>,
}

/// An entry standing for a file that did not parse (shown, never hidden).
pub fn broken(message: &str) -> Entry {
    Entry {
        id: String::new(),
        why: message.to_string(),
        wrong: Vec::new(),
        right: Vec::new(),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Why,
    Wrong,
    Right,
}

/// What is wrong in an explanation file (at its 1-based line, or in the
/// entry of a rule id).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("line {0}: text before the first `== <rule id>`")]
    TextBeforeFirstEntry(usize),
    #[error("line {0}: expected `why:`")]
    ExpectedWhy(usize),
    #[error("line {0}: an exchange line starts with `>`, `<` or `#`")]
    BadExchangeLine(usize),
    /// The entry of this rule id lacks a part.
    #[error("{0}: needs why, wrong and right")]
    Incomplete(String),
}

/// Parse one explanation file.
pub fn parse(text: &str) -> Result<Vec<Entry>, DataError> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut part = Part::Why;
    for (n, raw) in text.lines().enumerate() {
        let at = n + 1;
        let line = raw.trim_end();
        if line.starts_with(";;") || (line.is_empty() && part == Part::Why) {
            continue;
        }
        if let Some(id) = line.strip_prefix("== ") {
            entries.push(Entry {
                id: id.trim().to_string(),
                why: String::new(),
                wrong: Vec::new(),
                right: Vec::new(),
            });
            part = Part::Why;
            continue;
        }
        let Some(entry) = entries.last_mut() else {
            return Err(DataError::TextBeforeFirstEntry(at));
        };
        if line.is_empty() {
            continue;
        }
        if let Some(why) = line.strip_prefix("why:") {
            entry.why = why.trim().to_string();
            part = Part::Why;
        } else if line == "wrong:" {
            part = Part::Wrong;
        } else if line == "right:" {
            part = Part::Right;
        } else if part == Part::Why {
            if entry.why.is_empty() {
                return Err(DataError::ExpectedWhy(at));
            }
            entry.why.push(' ');
            entry.why.push_str(line.trim());
        } else {
            let (mark, rest) = line.split_at(1.min(line.len()));
            let rest = rest.strip_prefix(' ').unwrap_or(rest).to_string();
            let l = match mark {
                ">" => Line::Sent(rest),
                "<" => Line::Received(rest),
                "#" => Line::Note(rest),
                _ => return Err(DataError::BadExchangeLine(at)),
            };
            if part == Part::Wrong {
                entry.wrong.push(l);
            } else {
                entry.right.push(l);
            }
        }
    }
    for e in &entries {
        if e.why.is_empty() || e.wrong.is_empty() || e.right.is_empty() {
            return Err(DataError::Incomplete(e.id.clone()));
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    #[test]
    fn data_errors_name_the_line_as_before() {
        assert_eq!(
            super::parse("why: x\n").unwrap_err().to_string(),
            "line 1: text before the first `== <rule id>`"
        );
        assert_eq!(
            super::parse("== a.b.c\nwrong:\n? what\n")
                .unwrap_err()
                .to_string(),
            "line 3: an exchange line starts with `>`, `<` or `#`"
        );
    }
}
