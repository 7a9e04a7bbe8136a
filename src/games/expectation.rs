//! A game's own expectations (QTP: `success`, `error`) beside the core ones
//! every game knows, and the one check of them wherever a scenario comes
//! from.

use super::Game;
use crate::scenario_model::Expect;

/// An expectation a game adds to the core ones (`legal-move`, `reply`,
/// `matches`, `silence`, `exit`); its session gives it its meaning in
/// `Session::judge`.
pub struct OwnExpectation {
    pub word: &'static str,
    /// What its text is (`error`: "the error message"); `None`: it takes none.
    pub text: Option<&'static str>,
    /// Whether a reply, as the game reads it, meets it: `protocheck record`
    /// checks an expectation typed after a reply against that reply. The
    /// error says how the reply differs.
    pub holds: fn(text: Option<&str>, reply: &str) -> Result<(), Unmet>,
}

/// A scenario's own expectation the game cannot be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpectationError {
    /// A word the game does not know; `words` are all it knows, `near` the
    /// closest of them.
    #[error(
        "unknown expectation `{word}`: {game} knows {}{}",
        quoted(words),
        near_hint(near)
    )]
    Unknown {
        word: String,
        game: &'static str,
        words: Vec<&'static str>,
        near: Option<String>,
    },
    /// The word takes a text (`what` it is) and none was given.
    #[error("`expect: {word}` needs {what}: write `expect: {{ {word}: \"…\" }}`")]
    NeedsText { word: String, what: &'static str },
    /// The word takes no text and one was given.
    #[error("`expect: {word}` takes no text: write `expect: {word}`")]
    TakesNoText { word: String },
}

fn quoted(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn near_hint(near: &Option<String>) -> String {
    near.as_ref()
        .map(|n| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default()
}

/// How a reply misses a game's own expectation (QTP's: the one game with
/// own expectations words them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unmet {
    #[error("the reply `{reply}` is not a success (`= …`)")]
    NotSuccess { reply: String },
    #[error("the reply `{reply}` is not a failure (`? …`)")]
    NotFailure { reply: String },
    #[error("the bot refused with `? {got}`, not `? {want}`")]
    OtherRefusal { got: String, want: String },
}

/// Where a caller still reports errors as text (the scenario loader, the
/// lint, `record`), the message.
impl From<ExpectationError> for String {
    fn from(error: ExpectationError) -> Self {
        error.to_string()
    }
}

/// As [`ExpectationError`]'s.
impl From<Unmet> for String {
    fn from(error: Unmet) -> Self {
        error.to_string()
    }
}

/// The one check of a game's own expectation, wherever a scenario comes
/// from (a file, a built-in suite, the lint, `record`'s prompt): a word the
/// game does not list is refused with the words it knows, and a text must be
/// given exactly where the word takes one. Core expectations always pass.
pub fn check_expect(game: &dyn Game, expect: &Expect) -> Result<(), ExpectationError> {
    own_expectation(game, expect).map(|_| ())
}

/// The game's entry for an own expectation (`None` for a core one), or why
/// the game cannot be given it.
pub fn own_expectation(
    game: &dyn Game,
    expect: &Expect,
) -> Result<Option<&'static OwnExpectation>, ExpectationError> {
    let Expect::Own(own) = expect else {
        return Ok(None);
    };
    let own_words = game.expectations().iter().map(|e| e.word);
    let Some(known) = game.expectations().iter().find(|e| e.word == own.word) else {
        let words: Vec<&'static str> = Expect::CORE_WORDS
            .iter()
            .copied()
            .chain(own_words)
            .collect();
        let near = crate::suggest::nearest(&own.word, &words);
        return Err(ExpectationError::Unknown {
            word: own.word.clone(),
            game: game.id(),
            words,
            near,
        });
    };
    match (known.text, &own.text) {
        (Some(what), None) => Err(ExpectationError::NeedsText {
            word: own.word.clone(),
            what,
        }),
        (None, Some(_)) => Err(ExpectationError::TakesNoText {
            word: own.word.clone(),
        }),
        _ => Ok(Some(known)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario_model::OwnExpect;

    #[test]
    fn an_unknown_expectation_names_the_words_the_game_knows_as_before() {
        let expect = Expect::Own(OwnExpect {
            word: "sucess".into(),
            text: None,
        });
        let e = check_expect(crate::games::by_id("quoridor").unwrap(), &expect).unwrap_err();
        assert!(matches!(e, ExpectationError::Unknown { .. }));
        let text = e.to_string();
        assert!(
            text.starts_with("unknown expectation `sucess`: quoridor knows `"),
            "{text}"
        );
        assert!(text.ends_with(" (did you mean `success`?)"), "{text}");
        assert_eq!(
            Unmet::OtherRefusal {
                got: "x".into(),
                want: "y".into()
            }
            .to_string(),
            "the bot refused with `? x`, not `? y`"
        );
    }
}
