//! QTP's own scenario expectations: a command-response protocol answers `=`
//! for a success and `? text` for a failure, so a scenario may expect either
//! (`expect: success`, `expect: { error: TEXT }`). The core expectations
//! (`legal-move`, `reply`, …) are every game's; these are QTP's alone.

use crate::games::{OwnExpectation, ScriptError, Unmet};
use crate::scenario_model::Expect;

/// QTP's own expectations, as the scenario loader and `record` check them.
pub static EXPECTATIONS: &[OwnExpectation] = &[
    OwnExpectation {
        word: "success",
        text: None,
        holds: success_holds,
    },
    OwnExpectation {
        word: "error",
        text: Some("the error message"),
        holds: error_holds,
    },
];

/// What a step expects of a response beyond the automatic judgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QtpExpect<'a> {
    /// Nothing more (the core expectations: the controller compares
    /// `reply`/`matches` itself).
    Judged,
    /// A success (`= …`).
    Success,
    /// A failure with this text (`? text`).
    Error(&'a str),
}

impl QtpExpect<'_> {
    /// A step's expectation in QTP's terms.
    pub fn of(expect: &Expect) -> Result<QtpExpect<'_>, ScriptError> {
        let Expect::Own(own) = expect else {
            return Ok(QtpExpect::Judged);
        };
        match (own.word.as_str(), own.text.as_deref()) {
            ("success", None) => Ok(QtpExpect::Success),
            ("error", Some(text)) => Ok(QtpExpect::Error(text)),
            _ => Err(format!(
                "`expect: {}` is not one of QTP's expectations as written (`success`, `{{ error: TEXT }}`)",
                own.word
            ).into()),
        }
    }
}

fn success_holds(_text: Option<&str>, reply: &str) -> Result<(), Unmet> {
    if reply.starts_with('=') {
        Ok(())
    } else {
        Err(Unmet::NotSuccess {
            reply: reply.to_string(),
        })
    }
}

fn error_holds(text: Option<&str>, reply: &str) -> Result<(), Unmet> {
    let want = text.unwrap_or_default();
    match reply.strip_prefix('?') {
        Some(got) if got.trim() == want.trim() => Ok(()),
        Some(got) => Err(Unmet::OtherRefusal {
            got: got.trim().to_string(),
            want: want.to_string(),
        }),
        None => Err(Unmet::NotFailure {
            reply: reply.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{check_expect, quoridor::QUORIDOR};
    use crate::scenario_model::OwnExpect;

    fn own(word: &str, text: Option<&str>) -> Expect {
        Expect::Own(OwnExpect {
            word: word.into(),
            text: text.map(str::to_string),
        })
    }

    #[test]
    fn success_and_error_are_quoridor_expectations_with_and_without_a_text() {
        assert_eq!(QtpExpect::of(&own("success", None)), Ok(QtpExpect::Success));
        assert_eq!(
            QtpExpect::of(&own("error", Some("illegal move"))),
            Ok(QtpExpect::Error("illegal move"))
        );
        assert_eq!(QtpExpect::of(&Expect::LegalMove), Ok(QtpExpect::Judged));
        assert!(check_expect(&QUORIDOR, &own("success", None)).is_ok());
        let e = check_expect(&QUORIDOR, &own("error", None)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`expect: error` needs the error message: write `expect: { error: \"…\" }`"
        );
        let e = check_expect(&QUORIDOR, &own("success", Some("x"))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`expect: success` takes no text: write `expect: success`"
        );
    }

    #[test]
    fn a_reply_meets_success_or_error_only_with_its_status_and_text() {
        assert!(success_holds(None, "= ok").is_ok());
        assert_eq!(
            success_holds(None, "? illegal move").unwrap_err().to_string(),
            "the reply `? illegal move` is not a success (`= …`)"
        );
        assert!(error_holds(Some("illegal move"), "? illegal move").is_ok());
        assert_eq!(
            error_holds(Some("cannot undo"), "? illegal move").unwrap_err().to_string(),
            "the bot refused with `? illegal move`, not `? cannot undo`"
        );
        assert!(error_holds(Some("x"), "= ").is_err());
    }
}
