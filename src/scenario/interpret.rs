//! What the steps of a scenario mean, written once: the order of a step's
//! effects, which replies are settled before it, and which steps are errors
//! where. Two back ends carry the steps out: the controller's live run
//! against a bot, and the suite's dry lint that only tracks the session.

use super::load::{PatternError, compile_pattern};
use super::{Expect, Play, Span, Step, Token};
use std::time::Duration;

/// What a step does, done by a live run or a dry check. An `Err` is a
/// scenario error at the step (the scenario, not the bot).
pub trait StepBackend {
    /// At most this many due replies are settled in a row: a dry session
    /// could keep asking (Kalah extra turns) where a live bot cannot.
    const SETTLE_LIMIT: usize;
    /// Steps after `play: to-end` are carried out only by a back end that
    /// played the game out; a dry one never simulated that play.
    const PLAYS_OUT: bool;

    /// Step `index` (at `span`) is next.
    fn at_step(&mut self, index: usize, span: &Span);
    /// Replies due, as counted so far.
    fn replies_due(&self) -> usize;
    /// Whether that count can be trusted to judge `expect:` steps by (a dry
    /// session can lose track of the state; a live run counts what it sent).
    fn count_known(&self) -> bool;
    /// The scenario is over for this back end: a failure, or the bot went
    /// away. Nothing more is done.
    fn ended(&self) -> bool;
    /// Does this message abort the bot's current reply (QTP `abort`)?
    fn interrupts(&self, text: &str) -> bool;
    /// Forget the replies due (an abort does not wait for them).
    fn drop_due_replies(&mut self);
    /// Take one due reply as `expect` says (`LegalMove` for an implied one).
    fn reply(&mut self, expect: &Expect) -> Result<(), StepFault>;
    /// The due replies are settled.
    fn settled(&mut self) {}
    fn send(&mut self, step: &Step, text: &str) -> Result<(), StepFault>;
    fn opponent(&mut self, choice: &str) -> Result<(), StepFault>;
    fn silence(&mut self, step: &Step);
    fn exit(&mut self, step: &Step);
    fn wait(&mut self, step: &Step, duration: Duration);
    fn close_input(&mut self, step: &Step);
    fn play_to_end(&mut self) -> Result<(), StepFault>;
}

/// How a walk over all the steps ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Walked {
    /// Every step was carried out.
    All,
    /// The back end ended the scenario after a step (a failure, the bot went away).
    Ended,
}

/// A scenario error: the step it is at, and what is wrong.
#[derive(Debug)]
pub struct StepError {
    pub span: Span,
    pub fault: StepFault,
}

/// What is wrong with a step (the scenario, not the bot).
#[derive(Debug, thiserror::Error)]
pub enum StepFault {
    #[error(
        "after `play: to-end` the game is over: only `expect: exit`, `expect: silence`, `wait` and `close-input` may follow"
    )]
    AfterPlayToEnd,
    #[error("`expect: silence` where a reply is due: it can never pass")]
    SilenceWhereReplyDue,
    #[error("`expect: {word}` where no reply is due (nothing sent asks the bot for one)")]
    NoReplyDue { word: String },
    #[error(transparent)]
    Pattern(#[from] PatternError),
    #[error("bad duration `{text}`: {source} (write e.g. `300ms`)")]
    BadDuration {
        text: String,
        #[source]
        source: humantime::DurationError,
    },
    /// The step contradicts the rules or the protocol in the tracked session.
    #[error(transparent)]
    Rules(#[from] crate::games::ScriptError),
    /// In the live run's words, as text: a scenario fault the controller
    /// found while judging the bot (kept as text there, `ScriptFault`).
    #[error("{0}")]
    Live(String),
}

/// The interpreter of the step language; its only state is whether the
/// game was played to its end.
#[derive(Debug, Default)]
pub struct StepInterpreter {
    over: bool,
}

impl StepInterpreter {
    /// Carry out every step, stopping at the first error or when the back
    /// end ends the scenario. A dry back end goes on past a step that may not
    /// follow `play: to-end` (such steps do nothing there, so the next ones
    /// are checked as written) and reports each one.
    pub fn walk<B: StepBackend>(
        &mut self,
        steps: &[(Step, Span)],
        backend: &mut B,
    ) -> Result<Walked, Vec<StepError>> {
        let mut errors = Vec::new();
        let mut walked = Walked::All;
        for (index, (step, span)) in steps.iter().enumerate() {
            backend.at_step(index, span);
            let after_end = self.over;
            if let Err(fault) = self.step(backend, step) {
                errors.push(StepError {
                    span: span.clone(),
                    fault,
                });
                if B::PLAYS_OUT || !after_end {
                    return Err(errors);
                }
            }
            if backend.ended() {
                walked = Walked::Ended;
                break;
            }
        }
        if errors.is_empty() {
            Ok(walked)
        } else {
            Err(errors)
        }
    }

    /// Carry out one step.
    pub fn step<B: StepBackend>(&mut self, b: &mut B, step: &Step) -> Result<(), StepFault> {
        if self.over {
            if !matches!(
                step,
                Step::Expect(Expect::Exit | Expect::Silence) | Step::Wait(_) | Step::CloseInput
            ) {
                return Err(StepFault::AfterPlayToEnd);
            }
            if !B::PLAYS_OUT {
                return Ok(());
            }
        }
        match step {
            Step::Send(text) => {
                if b.interrupts(text) {
                    b.drop_due_replies();
                } else {
                    Self::settle(b)?;
                }
                b.send(step, text)?;
            }
            Step::Opponent(Token(choice)) => {
                Self::settle(b)?;
                // A due reply that failed ends the scenario here: moving on
                // would make the bot's failure look like a scenario error.
                if b.ended() {
                    return Ok(());
                }
                b.opponent(choice)?;
            }
            Step::Expect(Expect::Silence) => {
                if b.count_known() && b.replies_due() > 0 {
                    return Err(StepFault::SilenceWhereReplyDue);
                }
                b.silence(step);
            }
            Step::Expect(Expect::Exit) => {
                Self::settle(b)?;
                b.exit(step);
            }
            Step::Expect(expect) => {
                if b.count_known() && b.replies_due() == 0 {
                    return Err(StepFault::NoReplyDue {
                        word: expect.word().to_string(),
                    });
                }
                if let Expect::Matches(p) = expect {
                    compile_pattern(p)?;
                }
                b.reply(expect)?;
            }
            Step::Play(Play::ToEnd) => {
                self.over = true;
                b.play_to_end()?;
            }
            Step::Wait(d) => {
                Self::settle(b)?;
                if b.ended() {
                    return Ok(());
                }
                let duration =
                    humantime::parse_duration(d).map_err(|source| StepFault::BadDuration {
                        text: d.clone(),
                        source,
                    })?;
                b.wait(step, duration);
            }
            Step::CloseInput => {
                Self::settle(b)?;
                b.close_input(step);
            }
        }
        Ok(())
    }

    /// A due reply is settled before the next message is sent: each is taken
    /// as `expect: legal-move`.
    pub fn settle<B: StepBackend>(b: &mut B) -> Result<(), StepFault> {
        for _ in 0..B::SETTLE_LIMIT {
            if b.replies_due() == 0 || b.ended() {
                break;
            }
            b.reply(&Expect::LegalMove)?;
        }
        b.settled();
        Ok(())
    }
}

/// The YAML word of an expectation, for messages.
pub fn expect_word(e: &Expect) -> &str {
    e.word()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A back end that records what it was asked to do; each send asks for
    /// `replies_per_send` replies.
    #[derive(Default)]
    struct Recorder<const PLAYS_OUT: bool> {
        done: Vec<String>,
        due: usize,
        replies_per_send: usize,
        unknown: bool,
    }

    impl<const P: bool> StepBackend for Recorder<P> {
        const SETTLE_LIMIT: usize = 100;
        const PLAYS_OUT: bool = P;
        fn at_step(&mut self, index: usize, _span: &Span) {
            self.done.push(format!("step {index}"));
        }
        fn replies_due(&self) -> usize {
            self.due
        }
        fn count_known(&self) -> bool {
            !self.unknown
        }
        fn ended(&self) -> bool {
            false
        }
        fn interrupts(&self, text: &str) -> bool {
            text == "abort"
        }
        fn drop_due_replies(&mut self) {
            self.due = 0;
            self.done.push("drop".into());
        }
        fn reply(&mut self, expect: &Expect) -> Result<(), StepFault> {
            self.due = self.due.saturating_sub(1);
            self.done.push(format!("reply {}", expect_word(expect)));
            Ok(())
        }
        fn send(&mut self, _step: &Step, text: &str) -> Result<(), StepFault> {
            self.due += self.replies_per_send;
            self.done.push(format!("send {text}"));
            Ok(())
        }
        fn opponent(&mut self, choice: &str) -> Result<(), StepFault> {
            self.done.push(format!("opponent {choice}"));
            Ok(())
        }
        fn silence(&mut self, _step: &Step) {
            self.done.push("silence".into());
        }
        fn exit(&mut self, _step: &Step) {
            self.done.push("exit".into());
        }
        fn wait(&mut self, _step: &Step, duration: Duration) {
            self.done.push(format!("wait {}ms", duration.as_millis()));
        }
        fn close_input(&mut self, _step: &Step) {
            self.done.push("close".into());
        }
        fn play_to_end(&mut self) -> Result<(), StepFault> {
            self.done.push("to-end".into());
            Ok(())
        }
    }

    fn steps(list: Vec<Step>) -> Vec<(Step, Span)> {
        list.into_iter()
            .enumerate()
            .map(|(i, s)| {
                let line = i as u32 + 1;
                (s, Span { line, column: 1 })
            })
            .collect()
    }

    #[test]
    fn a_due_reply_is_settled_as_legal_move_before_the_next_message_but_not_before_an_abort() {
        let mut b = Recorder::<true> {
            replies_per_send: 1,
            ..Default::default()
        };
        let script = steps(vec![
            Step::Send("a".into()),
            Step::Send("b".into()),
            Step::Send("abort".into()),
            Step::Wait("5ms".into()),
        ]);
        let walked = StepInterpreter::default().walk(&script, &mut b).unwrap();
        assert_eq!(walked, Walked::All);
        assert_eq!(
            b.done,
            [
                "step 0",
                "send a",
                "step 1",
                "reply legal-move",
                "send b",
                "step 2",
                "drop",
                "send abort",
                "step 3",
                "reply legal-move",
                "wait 5ms"
            ]
        );
    }

    #[test]
    fn expectations_against_the_reply_count_are_errors_only_where_the_count_is_known() {
        let script = steps(vec![Step::Expect(Expect::LegalMove)]);
        let mut known = Recorder::<true>::default();
        let errors = StepInterpreter::default()
            .walk(&script, &mut known)
            .unwrap_err();
        assert_eq!(
            errors[0].fault.to_string(),
            "`expect: legal-move` where no reply is due (nothing sent asks the bot for one)"
        );
        let mut unknown = Recorder::<false> {
            unknown: true,
            ..Default::default()
        };
        assert!(
            StepInterpreter::default()
                .walk(&script, &mut unknown)
                .is_ok()
        );

        let script = steps(vec![Step::Send("a".into()), Step::Expect(Expect::Silence)]);
        let mut b = Recorder::<true> {
            replies_per_send: 1,
            ..Default::default()
        };
        let errors = StepInterpreter::default()
            .walk(&script, &mut b)
            .unwrap_err();
        assert_eq!(errors[0].span.line, 2);
        assert_eq!(
            errors[0].fault.to_string(),
            "`expect: silence` where a reply is due: it can never pass"
        );
    }

    #[test]
    fn after_play_to_end_a_dry_walk_reports_every_misplaced_step_and_a_live_one_stops_at_the_first()
    {
        let script = steps(vec![
            Step::Play(Play::ToEnd),
            Step::Send("x".into()),
            Step::Expect(Expect::Exit),
            Step::Send("y".into()),
        ]);
        let mut dry = Recorder::<false>::default();
        let errors = StepInterpreter::default()
            .walk(&script, &mut dry)
            .unwrap_err();
        assert_eq!(
            errors.iter().map(|e| e.span.line).collect::<Vec<_>>(),
            [2, 4]
        );
        // The dry back end never simulated the played-out game: the allowed
        // `expect: exit` did nothing there.
        assert!(!dry.done.contains(&"exit".to_string()));

        let mut live = Recorder::<true>::default();
        let errors = StepInterpreter::default()
            .walk(&script, &mut live)
            .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].span.line, 2);
    }

    #[test]
    fn a_bad_wait_duration_is_a_scenario_error_at_its_step() {
        let script = steps(vec![Step::Wait("soon".into())]);
        let mut b = Recorder::<true>::default();
        let errors = StepInterpreter::default()
            .walk(&script, &mut b)
            .unwrap_err();
        assert!(
            errors[0]
                .fault
                .to_string()
                .starts_with("bad duration `soon`: "),
            "{}",
            errors[0].fault
        );
        // The parser's own error is kept as the source.
        assert!(std::error::Error::source(&errors[0].fault).is_some());
        assert!(!b.done.iter().any(|d| d.starts_with("wait")));
    }

    #[test]
    fn step_faults_read_as_before_and_keep_their_source() {
        assert_eq!(
            StepFault::AfterPlayToEnd.to_string(),
            "after `play: to-end` the game is over: only `expect: exit`, `expect: silence`, `wait` and `close-input` may follow"
        );
        let bad = compile_pattern("(").unwrap_err();
        assert!(
            bad.to_string().starts_with("bad regular expression: "),
            "{bad}"
        );
        let fault = StepFault::from(bad);
        assert!(fault.to_string().starts_with("bad regular expression: "));
        assert!(std::error::Error::source(&compile_pattern("(").unwrap_err()).is_some());
        let long = "a".repeat(super::super::load::MAX_PATTERN_BYTES + 1);
        assert_eq!(
            compile_pattern(&long).unwrap_err().to_string(),
            format!(
                "the regular expression is {} bytes long, over the limit of {}",
                long.len(),
                super::super::load::MAX_PATTERN_BYTES
            )
        );
    }
}
