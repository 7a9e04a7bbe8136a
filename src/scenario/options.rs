//! A scenario's `options:` as written, and how they are checked at load:
//! the core's (`timeout`, `silence` as durations, `seed`) typed here, the
//! game's by the game's own table; every error at its file:line:col.

use super::load_error::LoadError;
use super::model::{Options, OptionsDoc, Span};
use serde_json::Value;
use serde_saphyr::Spanned;

fn span_of(l: &serde_saphyr::Location) -> Span {
    Span {
        line: l.line() as u32,
        column: l.column() as u32,
    }
}

/// The options of a scenario file for `game` (an unknown game's options
/// are left unchecked: the unknown game is the error reported).
pub fn resolve(doc: Option<OptionsDoc>, game: &str, source: &str) -> Result<Options, LoadError> {
    let mut options = Options::default();
    for (name, value) in doc.unwrap_or_default().0 {
        let at = |s: &Spanned<_>, message: String| {
            LoadError::new(source, &span_of(&s.referenced), message)
        };
        match name.value.as_str() {
            // Written but empty (`timeout: ~`): unset, as if not written.
            "timeout" | "silence" | "seed" if value.value.is_null() => {}
            "timeout" | "silence" => {
                let d = duration(&value.value)
                    .map_err(|e| at(&value, format!("options.{}: {e}", name.value)))?;
                if name.value == "timeout" {
                    options.timeout = Some(d);
                } else {
                    options.silence = Some(d);
                }
            }
            "seed" => {
                let seed = value.value.as_u64().ok_or_else(|| {
                    at(
                        &value,
                        format!(
                            "options.seed: `{}` is not a whole number from 0",
                            value.value
                        ),
                    )
                })?;
                options.seed = Some(seed);
            }
            _ => {
                options.game.insert(name.value.clone(), value.value.clone());
                if let Some(g) = crate::games::by_id(game)
                    && let Err(refused) = crate::games::options::check(g, &options.game)
                {
                    let span = if refused.unknown {
                        &name.referenced
                    } else {
                        &value.referenced
                    };
                    return Err(LoadError::new(source, &span_of(span), refused.why));
                }
                if value.value.is_null() {
                    options.game.remove(&name.value);
                }
            }
        }
    }
    Ok(options)
}

/// A duration as written in a scenario (`2s`, `500ms`).
fn duration(value: &Value) -> Result<std::time::Duration, String> {
    let text = value
        .as_str()
        .ok_or_else(|| format!("`{value}` is not a duration (write e.g. `2s` or `500ms`)"))?;
    humantime::parse_duration(text)
        .map_err(|e| format!("bad duration `{text}`: {e} (write e.g. `2s` or `500ms`)"))
}

#[cfg(test)]
mod tests {
    use crate::scenario::load::parse;
    use std::time::Duration;

    #[test]
    fn durations_are_typed_at_load_and_a_bad_one_is_located() {
        let s = parse(
            "name: t\ngame: kalah\noptions: { timeout: 2s, silence: 300ms, seed: 4, holes: 6 }\nsteps: [close-input]\n",
            "t.yaml",
            None,
        )
        .unwrap();
        assert_eq!(s.options.timeout, Some(Duration::from_secs(2)));
        assert_eq!(s.options.silence, Some(Duration::from_millis(300)));
        assert_eq!(s.options.seed, Some(4));
        assert_eq!(
            s.options.game.get("holes"),
            Some(&serde_json::Value::from(6))
        );
        let e = parse(
            "name: t\ngame: kalah\noptions:\n  seed: 1\n  timeout: soon\nsteps: [close-input]\n",
            "t.yaml",
            None,
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (5, 12), "{e}");
        assert!(
            e.message
                .starts_with("options.timeout: bad duration `soon`"),
            "{e}"
        );
    }

    #[test]
    fn an_option_the_game_does_not_take_is_refused_where_it_stands() {
        let e = parse(
            "name: t\ngame: kalah\noptions: { holes: 6, walls: 3 }\nsteps: [close-input]\n",
            "t.yaml",
            None,
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (3, 22), "{e}");
        assert!(
            e.message.starts_with(
                "`walls` means nothing in kalah (it is one of the Quoridor options), which takes "
            ),
            "{e}"
        );
        let e = parse(
            "name: t\ngame: quoridor\noptions:\n  walls: many\nsteps: [close-input]\n",
            "t.yaml",
            None,
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (4, 10), "{e}");
        assert!(
            e.message
                .starts_with("options.walls: invalid type: string \"many\""),
            "{e}"
        );
    }
}
