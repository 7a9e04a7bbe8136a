//! The text and JSON forms of `protocheck explain`.

use super::{Explained, Line};
use serde::Serialize;
use std::fmt::Write;

/// An exchange line as shown: escapes kept (`\r`, `\t`), `\s` (a space the
/// eye would miss) drawn as `␠`.
pub fn visible(text: &str) -> String {
    text.replace("\\s", "␠")
}

/// The bytes an exchange line stands for, for the tests that replay it
/// through the games' judges (`\r`, `\t`, `\n`, `\s`, `\\`,
/// `\xNN`).
#[cfg(test)]
pub fn unescape(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('\\') {
        out.extend_from_slice(&rest.as_bytes()[..i]);
        let after = &rest[i + 1..];
        let (bytes, used): (Vec<u8>, usize) = match after.chars().next() {
            Some('r') => (vec![b'\r'], 1),
            Some('t') => (vec![b'\t'], 1),
            Some('n') => (vec![b'\n'], 1),
            Some('s') => (vec![b' '], 1),
            Some('\\') => (vec![b'\\'], 1),
            Some('x') => match after.get(1..3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) => (vec![b], 3),
                None => (vec![b'\\'], 0),
            },
            _ => (vec![b'\\'], 0),
        };
        out.extend_from_slice(&bytes);
        rest = &after[used..];
    }
    out.extend_from_slice(rest.as_bytes());
    out
}

fn exchange(out: &mut String, title: &str, lines: &[Line]) {
    let _ = writeln!(out, "{title}");
    for l in lines {
        let line = format!("  {} {}", l.mark(), visible(l.text()));
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// Word-wrap `text` at 78 columns, every line after the first indented.
fn wrapped(out: &mut String, label: &str, text: &str) {
    let indent = " ".repeat(label.len());
    let mut line = label.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > 78 {
            let _ = writeln!(out, "{line}");
            line = indent.clone();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    let _ = writeln!(out, "{line}");
}

/// The human form: one block per game that has the rule.
pub fn text(explained: &[Explained]) -> String {
    let mut out = String::new();
    for (i, e) in explained.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "{}  (game: {}, severity: {})",
            e.rule.id,
            e.game,
            e.rule.severity.as_str()
        );
        wrapped(&mut out, "spec:   ", e.rule.spec);
        wrapped(&mut out, "why:    ", &e.entry.why);
        if let Some(hint) = e.flush_hint {
            wrapped(&mut out, "flush:  ", hint);
            for (language, line) in super::FLUSH_LINES {
                let _ = writeln!(out, "          {language:<7} {line}");
            }
        }
        exchange(
            &mut out,
            "wrong:  (> protocheck sends, < the bot replies)",
            &e.entry.wrong,
        );
        exchange(&mut out, "right:", &e.entry.right);
        if e.entry
            .wrong
            .iter()
            .chain(&e.entry.right)
            .any(|l| l.text().contains("\\s"))
        {
            let _ = writeln!(out, "        (␠ marks a space)");
        }
        if e.scenarios.is_empty() {
            let _ = writeln!(
                out,
                "built-in scenarios naming it: none (no built-in scenario's `rules:` names it)"
            );
        } else {
            let _ = writeln!(out, "built-in scenarios naming it ({}):", e.scenarios.len());
            for s in &e.scenarios {
                let _ = writeln!(out, "  {s}");
            }
        }
    }
    out
}

#[derive(Serialize)]
struct JsonExplained<'a> {
    rule: &'a str,
    game: &'a str,
    severity: &'a str,
    spec: &'a str,
    why: &'a str,
    wrong: &'a [Line],
    right: &'a [Line],
    scenarios: &'a [String],
    /// The flushing advice, for a rule about a reply that never came.
    #[serde(skip_serializing_if = "Option::is_none")]
    flush: Option<JsonFlush>,
}

#[derive(Serialize)]
struct JsonFlush {
    hint: &'static str,
    /// Language → the line that writes a reply and flushes it.
    lines: std::collections::BTreeMap<&'static str, &'static str>,
}

/// The JSON form: an array with one object per game that has the rule.
pub fn json(explained: &[Explained]) -> String {
    let items: Vec<JsonExplained> = explained
        .iter()
        .map(|e| JsonExplained {
            rule: e.rule.id,
            game: e.game,
            severity: e.rule.severity.as_str(),
            spec: e.rule.spec,
            why: &e.entry.why,
            wrong: &e.entry.wrong,
            right: &e.entry.right,
            scenarios: &e.scenarios,
            flush: e.flush_hint.map(|hint| JsonFlush {
                hint,
                lines: super::FLUSH_LINES.iter().copied().collect(),
            }),
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&items).unwrap_or_else(|e| format!("\"{e}\""));
    s.push('\n');
    s
}
