//! Reading scenario files: YAML → typed [`Scenario`], with every error named
//! by file:line:col and, for a misspelt key, the nearest valid one.

use super::model::{Origin, Scenario, ScenarioDoc, Span};
use std::path::{Path, PathBuf};

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

/// Parse one scenario document. `source` names it in errors; `default_game`
/// applies when the file has no `game:` key.
pub fn parse(text: &str, source: &str, default_game: Option<&str>) -> Result<Scenario, LoadError> {
    let doc: ScenarioDoc = serde_saphyr::from_str(text).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line() as u32, l.column() as u32))
            .unwrap_or((0, 0));
        LoadError {
            file: source.to_string(),
            line,
            column,
            message: explain_yaml_error(&e),
        }
    })?;
    let span_of = |l: &serde_saphyr::Location| Span {
        line: l.line() as u32,
        column: l.column() as u32,
    };
    let game = match (&doc.game, default_game) {
        (Some(g), _) => g.value.clone(),
        (None, Some(g)) => g.to_string(),
        (None, None) => {
            return Err(LoadError::new(
                source,
                &span_of(&doc.name.referenced),
                "the scenario names no `game:` and no --game was given",
            ));
        }
    };
    if let (Some(g), Some(wanted)) = (&doc.game, default_game)
        && g.value != wanted
    {
        return Err(LoadError::new(
            source,
            &span_of(&g.referenced),
            format!(
                "this scenario is for game `{}`, but --game is `{wanted}`",
                g.value
            ),
        ));
    }
    if doc.name.value.trim().is_empty() {
        return Err(LoadError::new(
            source,
            &span_of(&doc.name.referenced),
            "`name` is empty",
        ));
    }
    if doc.steps.is_empty() {
        return Err(LoadError::new(
            source,
            &Span { line: 1, column: 1 },
            "`steps` is empty: a scenario needs at least one step",
        ));
    }
    Ok(Scenario {
        name: doc.name.value,
        game,
        about: doc.about,
        spec: doc.spec,
        options: doc.options,
        source: source.to_string(),
        steps: doc
            .steps
            .into_iter()
            .map(|s| (s.value, span_of(&s.referenced)))
            .collect(),
        origin: Origin::File,
    })
}

/// The message of a YAML/serde error, with "did you mean" for unknown keys.
fn explain_yaml_error(e: &serde_saphyr::Error) -> String {
    let raw = e.to_string();
    // serde-saphyr appends the location and a source snippet; we print our
    // own file:line:col, so keep only the first line of its text.
    let first = raw.lines().next().unwrap_or(&raw).trim().to_string();
    let first = strip_location_suffix(&first);
    match suggestion(&first) {
        Some(s) => format!("{first} (did you mean `{s}`?)"),
        None => first,
    }
}

/// serde-saphyr words its errors as `error: line 3 column 5: <what>`; we
/// print our own file:line:col, so keep only `<what>`.
fn strip_location_suffix(msg: &str) -> String {
    let re = regex::Regex::new(
        r"^(?:error:\s*)?(?:line \d+ column \d+:\s*)?(.*?)(?: at line \d+ column \d+)?$",
    )
    .expect("static regex");
    match re.captures(msg) {
        Some(c) => c[1].to_string(),
        None => msg.to_string(),
    }
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" (or variant),
/// the closest expected word, if it is plausibly a typo.
fn suggestion(msg: &str) -> Option<String> {
    let re = regex::Regex::new(r"unknown (?:field|variant) `([^`]*)`, expected (.*)").ok()?;
    let caps = re.captures(msg)?;
    let wrong = &caps[1];
    // The list is `a`, `b` (serde) or a, b (serde-saphyr).
    let candidates: Vec<&str> = caps[2]
        .trim_start_matches("one of ")
        .split(',')
        .map(|w| w.trim().trim_matches('`'))
        .filter(|w| !w.is_empty())
        .collect();
    nearest(wrong, &candidates)
}

/// The candidate closest to `wrong` by edit distance, if close enough.
pub fn nearest(wrong: &str, candidates: &[&str]) -> Option<String> {
    candidates
        .iter()
        .map(|c| (strsim::damerau_levenshtein(wrong, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min()
        .map(|(_, c)| c.to_string())
}

/// All scenario files under `path` (a file, or a folder searched recursively
/// for `*.yaml` / `*.yml`), in a stable order.
pub fn scenario_files(path: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let meta = std::fs::metadata(path).map_err(|e| LoadError {
        file: path.display().to_string(),
        line: 0,
        column: 0,
        message: format!("cannot read: {e}"),
    })?;
    if meta.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| LoadError {
            file: dir.display().to_string(),
            line: 0,
            column: 0,
            message: format!("cannot read folder: {e}"),
        })?;
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
                found.push(p);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Read and parse one file.
pub fn load_file(path: &Path, default_game: Option<&str>) -> Result<Scenario, LoadError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| LoadError {
        file: name.clone(),
        line: 0,
        column: 0,
        message: format!("cannot read: {e}"),
    })?;
    parse(&text, &name, default_game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::model::{Expect, Step};

    #[test]
    fn parses_the_basic_vocabulary_with_spans() {
        let text = "name: t\ngame: kalah\nsteps:\n  - send: \"START;South\"\n  - expect: legal-move\n  - opponent: 3\n  - expect: { reply: \"MOVE;2\" }\n  - play: to-end\n  - close-input\n";
        let s = parse(text, "t.yaml", None).unwrap();
        assert_eq!(s.steps.len(), 6);
        assert_eq!(s.steps[0].0, Step::Send("START;South".into()));
        assert_eq!(s.steps[0].1, Span { line: 4, column: 5 });
        assert_eq!(s.steps[1].0, Step::Expect(Expect::LegalMove));
        assert_eq!(s.steps[3].0, Step::Expect(Expect::Reply("MOVE;2".into())));
        assert_eq!(s.steps[3].1.line, 7);
        assert_eq!(s.steps[5].0, Step::CloseInput);
    }

    #[test]
    fn misspelt_top_level_key_names_line_column_and_suggestion() {
        let text = "name: t\ngame: kalah\nstpes:\n  - send: x\n";
        let e = parse(text, "t.yaml", None).unwrap_err();
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        assert!(e.message.contains("did you mean `steps`"), "{e}");
    }

    #[test]
    fn misspelt_step_kind_suggests_nearest() {
        let text = "name: t\ngame: kalah\nsteps:\n  - sned: x\n";
        let e = parse(text, "t.yaml", None).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("did you mean `send`"), "{e}");
    }

    #[test]
    fn misspelt_expectation_suggests_nearest() {
        let text = "name: t\ngame: kalah\nsteps:\n  - expect: silense\n";
        let e = parse(text, "t.yaml", None).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("did you mean `silence`"), "{e}");
    }

    #[test]
    fn game_mismatch_and_missing_game_are_errors() {
        let e = parse(
            "name: t\ngame: kalah\nsteps: [close-input]\n",
            "t.yaml",
            Some("quoridor"),
        )
        .unwrap_err();
        assert!(e.message.contains("for game `kalah`"), "{e}");
        let e = parse("name: t\nsteps: [close-input]\n", "t.yaml", None).unwrap_err();
        assert!(e.message.contains("no `game:`"), "{e}");
    }

    #[test]
    fn bad_yaml_syntax_has_location() {
        let e = parse("name: t\nsteps: [\n", "t.yaml", Some("kalah")).unwrap_err();
        assert!(e.line >= 2, "{e}");
        assert!(e.to_string().starts_with("t.yaml:"), "{e}");
    }

    #[test]
    fn empty_steps_is_an_error() {
        let e = parse("name: t\nsteps: []\n", "t.yaml", Some("kalah")).unwrap_err();
        assert!(e.message.contains("steps"), "{e}");
    }
}
