//! What a game must write to be refereed, and what it gets by default.

use super::*;
use crate::scenario_model::Expect;
use crate::shared_rules::IO_NO_EXIT;
use crate::transport::ExitStatus;

/// A session that writes only what every game must: the referee's ten
/// methods, `assume` and `board`. It compiles only while that is all a game
/// must write.
struct Minimal;

impl Session for Minimal {
    fn send(&mut self, text: &str) -> Result<Outgoing, ScriptError> {
        Ok(Outgoing::asking(text))
    }
    fn opponent(&mut self, _: &str, _: &mut fastrand::Rng) -> Result<Vec<Outgoing>, ScriptError> {
        Ok(Vec::new())
    }
    fn next(&self) -> Next {
        Next::Bot
    }
    fn judge(&mut self, _: &[u8], _: &Expect, _: Duration) -> Result<Judged, ScriptError> {
        Ok(Judged::default())
    }
    fn unexpected(&mut self, _: &[u8]) -> Option<Violation> {
        None
    }
    fn timed_out(&self, _: Duration) -> Violation {
        crate::shared_rules::IO_TIMEOUT.violation("late")
    }
    fn closed(&self, _: Option<ExitStatus>, _: Option<&[u8]>) -> Option<Violation> {
        None
    }
    fn exit_state(&self) -> ExitState {
        ExitState::default()
    }
    fn input_closed(&mut self) {}
    fn is_over(&self) -> bool {
        false
    }
}

impl Scripted for Minimal {
    fn assume(&mut self, _: Option<&str>) -> Result<Vec<Outgoing>, ScriptError> {
        Ok(Vec::new())
    }
}

impl Drawn for Minimal {
    fn board(&self) -> Option<String> {
        None
    }
}

#[test]
fn a_session_gets_the_common_behaviour_for_every_hook_it_does_not_write() {
    let mut s: Box<dyn Session> = Box::new(Minimal);
    assert!(s.silence_matters());
    assert_eq!(s.reply_part(b"", b"x\n"), Assembly::Complete);
    assert_eq!(s.reply_as_read(b"MOVE;3\n"), "MOVE;3");
    let never = crate::transport::ConnectionEvent::NeverConnected {
        waited: Duration::from_secs(1),
        exited: None,
    };
    assert!(s.connection(&never).is_none());
    assert_eq!(s.timed_out(Duration::from_secs(1)).rule, "io.timeout");
    let late = s.timed_out(Duration::from_secs(1));
    assert!(s.late_reply(&late, b"x\n").is_none());
    assert!(s.relay().is_none());
    assert!(s.ending().is_none());
    assert!(s.abort().is_empty());
    assert!(s.finish(1 << 30, "= stray").is_empty());
    assert!(s.state_known());
    assert!(s.last_opponent_step().is_none());
    assert!(s.legal_choices().is_empty());
    assert!(s.picture().is_none());
}

#[test]
fn no_exit_says_whether_protocheck_had_closed_the_input() {
    let grace = Duration::from_millis(1500);
    let policy = ExitPolicy {
        who: "the bot",
        status: None,
        no_exit: exit::NoExitPolicy::after_close(&IO_NO_EXIT),
    };
    let closed = policy.no_exit(
        ExitState {
            input_closed: true,
            ..ExitState::default()
        },
        grace,
    );
    assert_eq!(closed.rule, IO_NO_EXIT.id);
    assert_eq!(
        closed.message,
        "the bot was still running 1s 500ms after protocheck closed its input"
    );
    let open = policy.no_exit(ExitState::default(), grace);
    assert_eq!(
        open.message,
        "the bot was still running 1s 500ms where the scenario expects it to exit (its input is still open)"
    );
}

/// Match relaying is a capability: every game that seats bots at a match
/// hands it out, and only those (`matchplay` asks nothing else of them).
#[test]
fn a_session_relays_exactly_where_its_game_plays_matches() {
    for game in ALL {
        let s = game
            .session(&crate::scenario_model::Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", game.id()));
        assert_eq!(
            s.relay().is_some(),
            game.facts().seating.is_some(),
            "{}",
            game.id()
        );
    }
}

#[test]
fn only_quoridor_lists_expectations_of_its_own() {
    for game in ALL {
        let words: Vec<&str> = game.expectations().iter().map(|e| e.word).collect();
        let want: &[&str] = if game.id() == "quoridor" {
            &["success", "error"]
        } else {
            &[]
        };
        assert_eq!(words, want, "{}", game.id());
    }
}

/// A scenario error is a type of its own whose text is the message it was
/// made from, whether made from a `String`, a `&str` or by `?`.
#[test]
fn a_script_error_reads_as_its_message() {
    use crate::games::ScriptError;
    fn refused() -> Result<(), ScriptError> {
        Err(format!("`{}` is not a move", "x9"))?;
        Ok(())
    }
    let e = refused().unwrap_err();
    assert_eq!(e, ScriptError("`x9` is not a move".into()));
    assert_eq!(e.to_string(), "`x9` is not a move");
    assert!(e.contains("not a move"));
    assert_eq!(ScriptError::from("a"), ScriptError("a".into()));
    let text: String = e.into();
    assert_eq!(text, "`x9` is not a move");
    let source: &dyn std::error::Error = &ScriptError::from("b");
    assert_eq!(source.to_string(), "b");
}
