//! How an engine's session ends, and which cause a finding names: a crash
//! says "before `quit`" only while `quit` has not been sent; an engine that
//! leaves after `quit` without answering it breaks `quoridor.quit.response`;
//! output after protocheck closed the engine's input is the end-of-input
//! rule's business, not a response out of turn (quoridor.md §5).

use super::QtpSession;
use crate::games::quoridor::catalogue as rule;
use crate::games::quoridor::expect::Outcome;
use crate::transport::ExitStatus;
use crate::verdict::{Severity, Violation};

impl QtpSession {
    /// The finding for an engine whose output ended or that exited, unless
    /// it was free to leave (quit answered, input closed).
    pub(super) fn closed_finding(
        &self,
        exit: Option<ExitStatus>,
        partial: Option<&[u8]>,
    ) -> Option<Violation> {
        if self.quit_answered || self.eof {
            return None;
        }
        let quit_pending = self.pending.iter().any(|p| p.outcome == Outcome::Quit);
        if self.quit_sent && !quit_pending {
            // `quit` was answered, wrongly (a `?`): that answer was judged.
            return None;
        }
        let left = match exit {
            Some(status) => format!("the engine exited ({status})"),
            None => "the engine closed its output".to_string(),
        };
        let unterminated =
            partial.map(|p| format!(", leaving `{}` unterminated", crate::shown::message_text(p)));
        let unterminated = unterminated.as_deref().unwrap_or("");
        if let Some(p) = self.pending.front()
            && p.outcome == Outcome::Quit
        {
            return Some(rule::QUIT_RESPONSE.violation(format!(
                "`quit` was sent, and {left} without answering it{unterminated}: `=` and the empty line must come before the exit"
            )));
        }
        let how = if self.quit_sent {
            // A pipelined write: `quit` came after a command still unanswered.
            format!("{left}{unterminated} with `quit` still unanswered behind earlier commands")
        } else {
            format!("{left} before `quit`{unterminated}")
        };
        // The most specific cause first: what this write probed, then what
        // the unanswered command was about, then the start-up arguments.
        if let Some((r, line)) = &self.last_probe {
            // A crash is a failure even where misreading the line is not.
            let r = if r.severity == Severity::Fail {
                r
            } else {
                &rule::IO_CRASH
            };
            let line = line.replace('\r', "\\r").replace('\n', "\\n");
            return Some(r.violation(format!("{how}, right after protocheck sent `{line}`")));
        }
        if let Some(p) = self.pending.front()
            && let Some(r) = self.blame(p)
        {
            return Some(r.violation(format!("{how}, while `{}` was unanswered", p.line)));
        }
        if let Some(p) = self.pending.front()
            && p.command.is_none()
        {
            // Malformed arguments (`known_command` without a name): the
            // engine died reading them, whatever it was started with.
            return Some(rule::SYNTAX_MALFORMED.violation(format!(
                "{how}, right after protocheck sent `{}`, a command with missing or malformed arguments",
                p.line
            )));
        }
        if !self.answered_any && exit.is_some_and(|e| !e.success()) {
            let first = self
                .pending
                .front()
                .map(|p| format!(" (`{}`)", p.line))
                .unwrap_or_default();
            return Some(rule::PROCESS_SEED_ARG.violation(format!(
                "{how}, before answering its first command{first}; it was started with `-seed 42`, as the referee starts every engine"
            )));
        }
        Some(rule::IO_CRASH.violation(how))
    }

    /// Output after protocheck closed the engine's input without `quit`: no
    /// command can be pending, so it answers nothing; it is what the engine
    /// does at end of input (a loop re-running its last command, say), judged
    /// by the end-of-input rule, once.
    pub(super) fn output_after_eof(&mut self, shown: &str) -> Option<Violation> {
        if self.output_after_eof_reported {
            return None;
        }
        self.output_after_eof_reported = true;
        Some(
            rule::PROCESS_EOF
                .violation(format!(
                    "the engine wrote `{shown}` after protocheck closed its input without `quit`; at end of input it should exit, not answer again"
                ))
                .with_actual(shown),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use crate::games::Session;
    use crate::games::quoridor::rules::Colour;
    use crate::scenario_model::{Expect, Strategy};

    fn setup() -> QtpSession {
        let mut s = QtpSession::new(Colour::Black, Strategy::Greedy);
        for c in ["boardsize 9", "clear_board", "walls 10"] {
            s.send(c).unwrap();
            s.judge(b"=\n\n", &Expect::LegalMove, Duration::ZERO)
                .unwrap();
        }
        s
    }

    const EXIT_0: Option<ExitStatus> = Some(ExitStatus::Code(0));

    #[test]
    fn leaving_after_quit_without_its_response_breaks_the_quit_rule() {
        let mut s = setup();
        s.send("quit").unwrap();
        let v = s.closed(EXIT_0, None).unwrap();
        assert_eq!(v.rule, rule::QUIT_RESPONSE.id);
        assert_eq!(v.severity, Severity::Fail);
        assert_eq!(
            v.message,
            "`quit` was sent, and the engine exited (exit status 0) without answering it: `=` and the empty line must come before the exit"
        );
        let v = s.closed(None, Some(b"=")).unwrap();
        assert_eq!(
            v.message,
            "`quit` was sent, and the engine closed its output without answering it, leaving `=` unterminated: `=` and the empty line must come before the exit"
        );
    }

    #[test]
    fn before_quit_is_said_only_while_quit_was_not_sent() {
        let mut s = setup();
        s.send("showboard").unwrap();
        let v = s.closed(EXIT_0, None).unwrap();
        assert_eq!(v.rule, rule::IO_CRASH.id);
        assert_eq!(v.message, "the engine exited (exit status 0) before `quit`");
        // `quit` pipelined behind a command the engine never answered.
        let mut s = setup();
        s.send("showboard\nquit").unwrap();
        let v = s.closed(EXIT_0, None).unwrap();
        // (Blamed on the pipelined write it probed.)
        assert_eq!(v.rule, rule::INPUT_PIPELINED.id);
        assert_eq!(
            v.message,
            "the engine exited (exit status 0) with `quit` still unanswered behind earlier commands, right after protocheck sent `showboard\\nquit`"
        );
        // `quit` answered with `?`: that answer was judged; the exit is not a
        // second finding.
        let mut s = setup();
        s.send("quit").unwrap();
        let j = s
            .judge(b"? no\n\n", &Expect::LegalMove, Duration::ZERO)
            .unwrap();
        assert_eq!(j.violations[0].rule, rule::QUIT_RESPONSE.id);
        assert!(s.closed(EXIT_0, None).is_none());
    }

    #[test]
    fn a_crash_on_malformed_arguments_is_named_not_blamed_on_the_seed() {
        const SEGV: Option<ExitStatus> = Some(ExitStatus::Signal(11));
        // The first command of the session, and a later one.
        let fresh = QtpSession::new(Colour::Black, Strategy::Greedy);
        for mut s in [fresh, setup()] {
            s.send("known_command").unwrap();
            let v = s.closed(SEGV, None).unwrap();
            assert_eq!(v.rule, rule::SYNTAX_MALFORMED.id);
            assert_eq!(v.severity, Severity::Fail);
            assert!(
                v.message.contains("right after protocheck sent `known_command`"),
                "{}",
                v.message
            );
        }
        // A well-formed first command: the start-up arguments stay the
        // likely cause, and the command is named.
        let mut s = QtpSession::new(Colour::Black, Strategy::Greedy);
        s.send("name").unwrap();
        let v = s.closed(SEGV, None).unwrap();
        assert_eq!(v.rule, rule::PROCESS_SEED_ARG.id);
        assert!(v.message.contains("first command (`name`)"), "{}", v.message);
    }

    #[test]
    fn output_after_the_input_was_closed_is_the_end_of_input_rule_once() {
        let mut s = setup();
        let v = s.unexpected(b"= false\n").unwrap();
        assert_eq!(v.rule, rule::FRAMING_EXTRA_RESPONSE.id);
        s.input_closed();
        let v = s.unexpected(b"= false\n").unwrap();
        assert_eq!(v.rule, rule::PROCESS_EOF.id);
        assert_eq!(v.severity, Severity::Warn);
        assert_eq!(
            v.message,
            "the engine wrote `= false` after protocheck closed its input without `quit`; at end of input it should exit, not answer again"
        );
        assert!(s.unexpected(b"= false\n").is_none());
        assert!(s.unexpected(b"\n").is_none());
    }

    #[test]
    fn exit_findings_name_quit_or_end_of_input_only_when_it_happened() {
        let grace = Duration::from_secs(2);
        let mut s = setup();
        let v = crate::games::by_id("quoridor").unwrap().facts().no_exit(s.exit_state(), grace);
        assert_eq!(v.rule, rule::IO_NO_EXIT.id);
        assert_eq!(
            v.message,
            "the engine was still running 2s where the scenario expects it to exit (no `quit` answered, its input still open)"
        );
        s.input_closed();
        assert_eq!(crate::games::by_id("quoridor").unwrap().facts().no_exit(s.exit_state(), grace).rule, rule::PROCESS_EOF.id);
        let v = crate::games::by_id("quoridor").unwrap().facts().exited(s.exit_state(), ExitStatus::Code(1)).unwrap();
        assert_eq!(v.rule, rule::PROCESS_EOF.id);
        assert_eq!(
            v.message,
            "at end of input (no `quit`) the engine ended with exit status 1, not status 0"
        );
        let mut s = setup();
        s.send("quit").unwrap();
        s.judge(b"=\n\n", &Expect::LegalMove, Duration::ZERO)
            .unwrap();
        let v = crate::games::by_id("quoridor").unwrap().facts().no_exit(s.exit_state(), grace);
        assert_eq!(v.rule, rule::IO_NO_EXIT.id);
        assert_eq!(
            v.message,
            "the engine was still running 2s after answering `quit`"
        );
        let v = crate::games::by_id("quoridor").unwrap().facts().exited(s.exit_state(), ExitStatus::Code(1)).unwrap();
        assert_eq!(v.rule, rule::QUIT_EXIT_STATUS.id);
        assert!(
            v.message.starts_with("after answering `quit`"),
            "{}",
            v.message
        );
    }
}
