//! Reading scenario files: YAML → typed [`Scenario`], with every error named
//! by file:line:col and, for a misspelt key, the nearest valid one.

pub use super::load_error::LoadError;
use super::model::{Expect, Origin, Scenario, ScenarioDoc, Span, Step};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Bounds on scenario input, so that a hostile or broken file gets a located
/// error (exit 2) within a second and with bounded memory: a whole file, one
/// message text (`send:`, `expect: {reply}`), one regular expression, and
/// the compiled size of that expression.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
pub const MAX_TEXT_BYTES: usize = 64 * 1024;
pub const MAX_PATTERN_BYTES: usize = 4 * 1024;
const MAX_COMPILED_PATTERN: usize = 1024 * 1024;

/// The YAML parser's budget for scenario files, far below serde-saphyr's
/// general-purpose defaults: a scenario is a short list of flat steps.
fn yaml_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            // Alias bombs: few anchors and aliases, and no large replays.
            max_aliases: 1_000,
            max_anchors: 1_000,
            max_recorded_anchor_events: 100_000,
            max_recorded_anchor_bytes: 4 * 1024 * 1024,
            // Deep nesting (a scenario needs about 4 levels).
            max_depth: 32,
            flow_nesting_limit: 32,
            max_events: 1_000_000,
            max_nodes: 250_000,
            max_total_scalar_bytes: MAX_FILE_BYTES as usize,
            max_documents: 1,
            max_inclusion_depth: 0,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 100_000,
            max_replay_stack_depth: 16,
            max_alias_expansions_per_anchor: 1_000,
        },
        duplicate_keys: serde_saphyr::options::DuplicateKeyPolicy::Error,
    }
}

/// A `matches:` pattern compiled with bounded size (used by the loader, the
/// linter and the controller alike).
pub fn compile_pattern(pattern: &str) -> Result<regex::Regex, PatternError> {
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(PatternError::TooLong { len: pattern.len() });
    }
    regex::RegexBuilder::new(pattern)
        .size_limit(MAX_COMPILED_PATTERN)
        .dfa_size_limit(MAX_COMPILED_PATTERN)
        .build()
        .map_err(PatternError::Bad)
}

/// Why a `matches:` pattern does not compile.
#[derive(Debug, thiserror::Error)]
pub enum PatternError {
    #[error("the regular expression is {len} bytes long, over the limit of {max}", max = MAX_PATTERN_BYTES)]
    TooLong { len: usize },
    #[error("bad regular expression: {0}")]
    Bad(#[source] regex::Error),
}

/// Parse one scenario document. `source` names it in errors; `default_game`
/// applies when the file has no `game:` key.
pub fn parse(text: &str, source: &str, default_game: Option<&str>) -> Result<Scenario, LoadError> {
    let doc: ScenarioDoc =
        serde_saphyr::from_str_with_options(text, yaml_options()).map_err(|e| {
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
    let options = super::options::resolve(doc.options, &game, source)?;
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
    // A game's own expectations are checked once the game is known (an
    // unknown game is refused where the scenarios are selected).
    let known_game = crate::games::by_id(&game);
    for step in &doc.steps {
        check_step(&step.value, known_game)
            .map_err(|m| LoadError::new(source, &span_of(&step.referenced), m))?;
    }
    if let Some(known) = known_game
        && let Some(unknown) = doc
            .rules
            .iter()
            .find(|r| known.facts().catalogue.by_id(r).is_none())
    {
        return Err(LoadError::new(
            source,
            &Span { line: 1, column: 1 },
            format!(
                "`rules` names `{unknown}`, which is no rule of {} (`protocheck rules --game {}` lists them)",
                known.id(),
                known.id()
            ),
        ));
    }
    Ok(Scenario {
        name: doc.name.value,
        game,
        about: doc.about,
        rules: doc.rules,
        spec: doc.spec,
        options,
        source: source.to_string(),
        steps: doc
            .steps
            .into_iter()
            .map(|s| (s.value, span_of(&s.referenced)))
            .collect(),
        origin: Origin::File,
    })
}

/// Bounds a single step must keep, and an expectation the game knows.
fn check_step(step: &Step, game: Option<&dyn crate::games::Game>) -> Result<(), String> {
    if let (Step::Expect(expect), Some(game)) = (step, game) {
        crate::games::check_expect(game, expect)?;
    }
    let text = match step {
        Step::Send(t) => ("send", t),
        Step::Expect(Expect::Reply(t)) => ("expect: {reply}", t),
        Step::Expect(Expect::Matches(p)) => {
            return compile_pattern(p).map(|_| ()).map_err(|e| e.to_string());
        }
        _ => return Ok(()),
    };
    if text.1.len() > MAX_TEXT_BYTES {
        return Err(format!(
            "`{}` text is {} bytes long, over the limit of {MAX_TEXT_BYTES}",
            text.0,
            text.1.len()
        ));
    }
    Ok(())
}

/// The message of a YAML/serde error, with "did you mean" for unknown keys.
fn explain_yaml_error(e: &serde_saphyr::Error) -> String {
    let raw = e.to_string();
    // serde-saphyr appends the location and a source snippet; we print our
    // own file:line:col, so keep only the first line of its text.
    let first = raw.lines().next().unwrap_or(&raw).trim().to_string();
    let first = strip_location_suffix(&first);
    if let Some(what) = first.strip_prefix("budget breached: ") {
        return format!(
            "the file is too large, too deeply nested or uses too many aliases for a scenario ({what})"
        );
    }
    match suggestion(&first) {
        Some(s) => format!("{first} (did you mean `{s}`?)"),
        None => first,
    }
}

/// serde-saphyr words its errors as `error: line 3 column 5: <what>`; we
/// print our own file:line:col, so keep only `<what>`.
fn strip_location_suffix(msg: &str) -> String {
    // Compiled once: every rejected file (and every fuzzing input) passes here.
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^(?:error:\s*)?(?:line \d+ column \d+:\s*)?(.*?)(?: at line \d+ column \d+)?$",
        )
        .expect("static regex")
    });
    match RE.captures(msg) {
        Some(c) => c[1].to_string(),
        None => msg.to_string(),
    }
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" (or variant),
/// the closest expected word, if it is plausibly a typo.
fn suggestion(msg: &str) -> Option<String> {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"unknown (?:field|variant) `([^`]*)`, expected (.*)")
            .expect("static regex")
    });
    let caps = RE.captures(msg)?;
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

pub use crate::suggest::nearest;

/// All scenario files under `path` (a file, or a folder searched recursively
/// for `*.yaml` / `*.yml`), in a stable order.
pub fn scenario_files(path: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let meta = std::fs::metadata(path).map_err(|e| LoadError {
        file: path.display().to_string(),
        line: 0,
        column: 0,
        message: format!("cannot read: {e}"),
    })?;
    if !meta.is_dir() {
        // A file, or something that is neither (a FIFO): `load_file` says which.
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

/// Read and parse one file. Only regular files of at most
/// [`MAX_FILE_BYTES`] are read (a FIFO would block, a device never end);
/// every error names the file at a line and column (1:1 when the whole
/// file is at fault).
pub fn load_file(path: &Path, default_game: Option<&str>) -> Result<Scenario, LoadError> {
    let name = path.display().to_string();
    let whole = |message: String| LoadError {
        file: name.clone(),
        line: 1,
        column: 1,
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| whole(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        return Err(whole(format!("cannot read: it is {what}")));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(whole(format!(
            "the file is {} bytes long, over the limit of {MAX_FILE_BYTES} for a scenario",
            meta.len()
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| whole(format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    // Bounded even if the file grows while it is read.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| whole(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(whole(format!(
            "the file grew past the limit of {MAX_FILE_BYTES} bytes for a scenario"
        )));
    }
    let text =
        decode_utf8(bytes).map_err(|(span, message)| LoadError::new(&name, &span, message))?;
    parse(&text, &name, default_game)
}

/// The text of a scenario file, or where its first invalid UTF-8 byte is.
pub fn decode_utf8(bytes: Vec<u8>) -> Result<String, (Span, String)> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        // Columns count characters, as serde-saphyr's do.
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        let bad = e.as_bytes()[good.len()];
        (
            Span {
                line: line as u32,
                column: column as u32,
            },
            format!("the file is not valid UTF-8 (byte 0x{bad:02x})"),
        )
    })
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
    fn rules_are_a_field_of_ids_the_game_knows() {
        let text = "name: t\ngame: kalah\nabout: Prose.\nrules: [kalah.move.empty-hole, io.timeout]\nsteps:\n  - send: \"START;South\"\n";
        let s = parse(text, "t.yaml", None).unwrap();
        assert_eq!(s.rules, ["kalah.move.empty-hole", "io.timeout"]);
        assert_eq!(s.about.as_deref(), Some("Prose."));
        let typo = text.replace("empty-hole", "empty-hol");
        let e = parse(&typo, "t.yaml", None).unwrap_err();
        assert!(
            e.message
                .contains("`kalah.move.empty-hol`, which is no rule of kalah"),
            "{e}"
        );
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
    fn a_games_own_expectation_is_read_and_written_as_the_file_has_it() {
        let text = "name: t\ngame: quoridor\nsteps:\n  - send: \"boardsize 9\"\n  - expect: success\n  - send: \"boardsize 9\"\n  - expect: { error: \"x y\" }\n";
        let s = parse(text, "t.yaml", None).unwrap();
        let own = |word: &str, text: Option<&str>| {
            Step::Expect(Expect::Own(crate::scenario::OwnExpect {
                word: word.into(),
                text: text.map(str::to_string),
            }))
        };
        assert_eq!(s.steps[1].0, own("success", None));
        assert_eq!(s.steps[3].0, own("error", Some("x y")));
        let steps: Vec<Step> = s.steps.iter().map(|(step, _)| step.clone()).collect();
        let written = serde_saphyr::to_string(&steps).unwrap();
        let read: Vec<Step> = serde_saphyr::from_str(&written).unwrap();
        assert_eq!(read, steps, "{written}");
    }

    #[test]
    fn another_games_expectation_is_refused_at_its_step() {
        let text = "name: t\ngame: kalah\nsteps:\n  - send: \"START;South\"\n  - expect: success\n";
        let e = parse(text, "t.yaml", None).unwrap_err();
        assert_eq!((e.line, e.column), (5, 5), "{e}");
        assert_eq!(
            e.message,
            "unknown expectation `success`: kalah knows `legal-move`, `reply`, `matches`, `silence`, `exit`"
        );
        let e = parse(
            "name: t\ngame: kalah\nsteps:\n  - expect: reply\n",
            "t.yaml",
            None,
        )
        .unwrap_err();
        assert!(e.message.contains("`expect: reply` needs a text"), "{e}");
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
