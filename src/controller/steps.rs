//! The live back end of the step interpreter: a `Run` carries out each step
//! against the bot (the meaning of the steps is `scenario::interpret`'s).

use super::seat::Lifecycle;
use super::{Run, ScriptFault};
use crate::games::{Next, Outgoing};
use crate::outcome::Direction;
use crate::scenario::interpret::{StepBackend, StepFault, StepInterpreter, Walked};
use crate::scenario::{Expect, Span, Step, Token};
use std::time::Duration;

impl Run<'_> {
    pub(super) fn steps(&mut self) -> Result<(), ScriptFault> {
        self.begin();
        if self.gone() {
            return Ok(());
        }
        let scenario = self.scenario;
        match StepInterpreter::default().walk(&scenario.steps, self) {
            Ok(Walked::Ended) => Ok(()),
            Ok(Walked::All) => self.end_of_steps(),
            Err(errors) => Err(ScriptFault(
                errors
                    .into_iter()
                    .next()
                    .map(|e| e.fault.to_string())
                    .unwrap_or_default(),
            )),
        }
    }

    /// Before the first step: a reply due from the start, or a short window
    /// for output nobody asked for.
    pub(super) fn begin(&mut self) {
        if self.session.next() == Next::Bot {
            // The bot speaks first (an Evolution client's sign-up): that
            // reply is due from the start.
            let seat = &mut self.seats[self.at];
            seat.inbox.pending.push_back(seat.time.first_due);
        } else {
            // Anything a bot prints at start-up, before the first message, is
            // output nobody asked for; a short window makes it observable.
            self.listen_at_startup(self.seats[self.at].time.silence.min(super::STARTUP_WINDOW));
        }
    }

    /// After the last step.
    pub(super) fn end_of_steps(&mut self) -> Result<(), ScriptFault> {
        // Replies still due at the end are judged like any other.
        StepInterpreter::settle(self)?;
        self.flush_carry();
        // What the last message did to the bot (a crash on an empty line,
        // say) must not go unseen because the scenario ends there.
        if self.seats[self.at].inbox.unobserved_write && !self.gone() && !self.has_failure() {
            self.listen(self.seats[self.at].time.silence);
        }
        Ok(())
    }

    pub(super) fn step_ref(&self, span: &Span, index: Option<usize>) -> crate::verdict::StepRef {
        crate::verdict::StepRef {
            file: self.scenario.source.clone(),
            line: span.line,
            column: span.column,
            index,
        }
    }

    fn opponent_moves(&mut self, choice: &str) -> Result<(), ScriptFault> {
        let outs = self.session.opponent(choice, &mut self.rng)?;
        let step = self
            .session
            .last_opponent_step()
            .unwrap_or_else(|| Step::Opponent(Token(choice.to_string())));
        self.ledger.replay.push(step);
        self.write_all(outs);
        Ok(())
    }

    /// Generated play from the current state to the end of the game.
    fn play_out(&mut self) -> Result<(), ScriptFault> {
        loop {
            if self.has_failure() || self.gone() {
                return Ok(());
            }
            match self.session.next() {
                Next::Bot => {
                    if self.seats[self.at].inbox.pending.is_empty() {
                        return Err(ScriptFault(
                            "internal: the game says the bot is to move, but no reply is due"
                                .into(),
                        ));
                    }
                    self.ledger.replay.push(Step::Expect(Expect::LegalMove));
                    self.await_reply(&Expect::LegalMove)?;
                }
                Next::Opponent => {
                    // A pause first: output the bot sends now is out of turn,
                    // and must not be mistaken for a reply to our next move.
                    let window = self.pause_window();
                    if !window.is_zero() {
                        self.ledger
                            .replay
                            .push(Step::Wait(humantime::format_duration(window).to_string()));
                        self.listen(window);
                        if self.has_failure() || self.gone() {
                            return Ok(());
                        }
                    }
                    self.opponent_moves("auto")?;
                }
                Next::Finished => {
                    self.ledger.replay.push(Step::Expect(Expect::Exit));
                    self.close_input_at_end();
                    self.expect_exit();
                    return Ok(());
                }
            }
        }
    }

    pub(super) fn write(&mut self, out: Outgoing) {
        self.write_all(vec![out]);
    }

    /// Send what one move of the game gives at once (Evolution: `start`
    /// and `choose`) in a single write, each message in the transcript on
    /// its own line. A bot that takes one message per read is then caught
    /// every time, not only when the machine happens to join the writes
    /// (TCP joins them in real networks; Evolution rules §9.1 item 4).
    pub(super) fn write_all(&mut self, outs: Vec<Outgoing>) {
        if outs.is_empty() {
            return;
        }
        let end = self.game.facts().wire.message_end;
        let mut bytes = Vec::new();
        let mut replies = 0;
        for out in outs {
            self.record(Direction::Sent, out.text.clone());
            bytes.extend_from_slice(out.text.as_bytes());
            bytes.extend_from_slice(end);
            replies += out.replies;
        }
        self.seats[self.at].inbox.send(bytes, replies);
    }

    /// Games without a game-over message end by closing the bot's input
    /// once the game is over (or has failed); harmless if already closed.
    pub(super) fn close_input_at_end(&mut self) {
        if self.game.facts().ends_by_closing_input
            && !self.gone()
            && !self.seats[self.at].life.input_closed_at_end()
            && (self.session.is_over() || self.has_failure())
        {
            self.seats[self.at].life = Lifecycle::InputClosedAtEnd;
            self.note("protocheck closed the bot's input: the game is over");
            self.mark_ended("closed its input");
            self.session.input_closed();
            self.seats[self.at].inbox.conn.close_input();
        }
    }
}

impl StepBackend for Run<'_> {
    // Each live reply is read from the bot or times out, so settling ends.
    const SETTLE_LIMIT: usize = usize::MAX;
    const PLAYS_OUT: bool = true;

    fn at_step(&mut self, index: usize, span: &Span) {
        self.ledger.step = Some(self.step_ref(span, Some(index)));
    }

    fn replies_due(&self) -> usize {
        self.seats[self.at].inbox.pending.len()
    }

    fn count_known(&self) -> bool {
        true
    }

    fn ended(&self) -> bool {
        self.has_failure() || self.gone()
    }

    fn interrupts(&self, _text: &str) -> bool {
        // No game's message interrupts a due reply (Kalah's `END` waits for
        // it since 9d98647).
        false
    }

    fn drop_due_replies(&mut self) {
        self.seats[self.at].inbox.pending.clear();
    }

    fn reply(&mut self, expect: &Expect) -> Result<(), StepFault> {
        self.ledger.replay.push(Step::Expect(expect.clone()));
        self.await_reply(expect)
            .map_err(|ScriptFault(m)| StepFault::Live(m))
    }

    fn settled(&mut self) {
        self.flush_carry();
    }

    fn send(&mut self, step: &Step, text: &str) -> Result<(), StepFault> {
        let out = self.session.send(text)?;
        self.ledger.replay.push(step.clone());
        self.write(out);
        Ok(())
    }

    fn opponent(&mut self, choice: &str) -> Result<(), StepFault> {
        self.opponent_moves(choice)
            .map_err(|ScriptFault(m)| StepFault::Live(m))
    }

    fn silence(&mut self, step: &Step) {
        self.flush_carry();
        self.ledger.replay.push(step.clone());
        self.listen(self.seats[self.at].time.silence);
    }

    fn exit(&mut self, step: &Step) {
        self.ledger.replay.push(step.clone());
        self.close_input_at_end();
        self.expect_exit();
    }

    fn wait(&mut self, step: &Step, duration: Duration) {
        self.ledger.replay.push(step.clone());
        self.listen_for_wait(duration);
    }

    fn close_input(&mut self, step: &Step) {
        self.ledger.replay.push(step.clone());
        self.note("protocheck closed the bot's input (EOF)");
        self.session.input_closed();
        self.seats[self.at].inbox.conn.close_input();
    }

    fn play_to_end(&mut self) -> Result<(), StepFault> {
        self.play_out().map_err(|ScriptFault(m)| StepFault::Live(m))
    }
}
