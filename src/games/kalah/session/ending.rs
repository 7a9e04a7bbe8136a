//! The findings that name a cause: what a line nobody asked for is (a move
//! out of turn, output after END, output after protocheck closed the input),
//! why a reply is missing, and how the bot left. Each names only what the
//! transcript shows: the last thing the bot was told decides.

use super::super::catalogue as rule;
use super::super::grammar::Turn;
use super::super::rules::Side;
use super::{KalahSession, Told};
use crate::transport::ExitStatus;
use crate::verdict::Violation;
use std::time::Duration;

impl KalahSession {
    /// The rule a line now would break, where it is more than stray output
    /// (the coverage report counts a quiet listening window as its check).
    pub(super) fn quiet_rule_now(&self) -> Option<crate::verdict::RuleId> {
        if self.eof && !self.over {
            return None;
        }
        match self.told {
            Told::End | Told::Change { turn: Turn::End, .. } => Some(rule::END_OUTPUT_AFTER_END.id),
            Told::Change {
                turn: Turn::Opp,
                own: true,
            } => Some(rule::TURN_NO_EXTRA_TURN.id),
            Told::BotSwapped => Some(rule::TURN_MOVE_AFTER_SWAP.id),
            _ => None,
        }
    }

    /// A line that arrived while no reply was due.
    pub(super) fn unexpected_finding(&mut self, bytes: &[u8]) -> Option<Violation> {
        let shown = crate::shown::message_text(bytes);
        if self.eof && !self.over {
            return self.output_after_eof(&shown);
        }
        let v = match self.told {
            Told::End | Told::Change { turn: Turn::End, .. } => rule::END_OUTPUT_AFTER_END.violation(format!("the bot wrote `{shown}` after the game ended")),
            Told::Change { turn: Turn::Opp, own: true } => rule::TURN_NO_EXTRA_TURN.violation(format!(
                "the bot wrote `{shown}` after its own move was answered with OPP: the turn has passed{}",
                if self.position.plies() == 1 { " (the opening move never earns an extra turn)" } else { "" }
            )),
            Told::BotSwapped => rule::TURN_MOVE_AFTER_SWAP
                .violation(format!("the bot wrote `{shown}` right after its SWAP: after swapping it waits for the new North's move")),
            Told::Start(Side::North) => rule::IO_UNEXPECTED_OUTPUT.violation(format!("the bot wrote `{shown}` after START;North: North waits for South's opening")),
            Told::Nothing => rule::IO_UNEXPECTED_OUTPUT.violation(format!("the bot wrote `{shown}` before the match started")),
            _ => rule::IO_UNEXPECTED_OUTPUT.violation(format!("the bot wrote `{shown}` while no reply was due")),
        };
        Some(v.with_actual(shown).with_expected("(nothing)"))
    }

    /// Output after protocheck closed the bot's input without END. It is
    /// not a move: nothing is due, and the reference reads nothing from an
    /// agent once it has ended the match (kalah.md §5). What the bot does at
    /// end of input is the end-of-input rule's business (a warning), and one
    /// finding says it.
    fn output_after_eof(&mut self, shown: &str) -> Option<Violation> {
        if std::mem::replace(&mut self.eof_output_reported, true) {
            return None;
        }
        Some(
            rule::PROCESS_EOF
                .violation(format!(
                    "the bot wrote `{shown}` after protocheck closed its input without END: not a move (nothing was due, and the reference reads nothing once a match is over); at end of input a bot should just exit"
                ))
                .with_actual(shown)
                .with_expected("(nothing)"),
        )
    }

    pub(super) fn timeout_finding(&self, limit: Duration) -> Violation {
        let limit = humantime::format_duration(limit);
        match self.told {
            Told::Change { turn: Turn::You, own: true } => rule::TURN_MISSED_TURN
                .violation(format!("no move within {limit} after its own move earned an extra turn (`…;YOU` right after its move)")),
            Told::SwapNotice => rule::TURN_MISSED_TURN
                .violation(format!("no move within {limit} after CHANGE;SWAP;…;YOU: the opponent swapped and the bot, now North, is to move")),
            _ => rule::IO_TIMEOUT.violation(format!("no complete reply line within {limit} (is stdout flushed after each line?)")),
        }
        .with_expected(self.legal_list())
    }

    /// The bot's output ended (`partial`: text left without LF) or it exited.
    pub(super) fn closed_finding(
        &self,
        exit: Option<ExitStatus>,
        partial: Option<&[u8]>,
    ) -> Option<Violation> {
        let ended = self.over || self.eof;
        if let Some(p) = partial {
            let shown = crate::shown::message_text(p);
            if ended {
                // Never a message, and never read: like any output after the
                // game or after end of input.
                return self.unterminated_after_end(&shown);
            }
            return Some(
                rule::FRAMING_NO_NEWLINE
                    .violation(format!("the bot left `{shown}` without a line end and then stopped writing: without LF it is never a message"))
                    .with_actual(shown),
            );
        }
        if ended {
            return None;
        }
        let how = match exit {
            Some(status) => format!("the bot exited ({status}) before the game ended"),
            None => "the bot closed its output or input before the game ended".to_string(),
        };
        Some(rule::IO_CRASH.violation(how))
    }

    /// Text without LF left when the bot stopped writing after END or after
    /// its input was closed.
    fn unterminated_after_end(&self, shown: &str) -> Option<Violation> {
        let v = if !self.over {
            if self.eof_output_reported {
                return None;
            }
            rule::PROCESS_EOF.violation(format!(
                "the bot left `{shown}` (no line end) after protocheck closed its input without END: not a move; at end of input a bot should just exit"
            ))
        } else {
            rule::END_OUTPUT_AFTER_END.violation(format!(
                "the bot left `{shown}` (no line end) after the game ended"
            ))
        };
        Some(v.with_actual(shown).with_expected("(nothing)"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::rules::{Board, Position};
    use super::*;
    use crate::games::Session;
    use crate::scenario_model::{Expect, Strategy, SwapPolicy};
    use crate::verdict::Severity;

    fn session() -> KalahSession {
        KalahSession::new(7, 7, Strategy::Greedy, SwapPolicy::Never)
    }

    fn judge(s: &mut KalahSession, line: &str) {
        let j = s
            .judge(
                format!("{line}\n").as_bytes(),
                &Expect::LegalMove,
                Duration::ZERO,
            )
            .unwrap();
        assert!(j.violations.is_empty(), "{line}: {:?}", j.violations);
    }

    /// South opened and was told `…;OPP`.
    fn after_opening() -> KalahSession {
        let mut s = session();
        s.send("START;South").unwrap();
        judge(&mut s, "MOVE;1");
        s
    }

    /// North swapped and has been told nothing since.
    fn after_swap() -> KalahSession {
        let mut s = session();
        s.send("START;North").unwrap();
        s.send("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU")
            .unwrap();
        judge(&mut s, "SWAP");
        s
    }

    #[test]
    fn a_move_out_of_turn_is_named_only_while_the_input_is_open() {
        // The transcript condition of each diagnosis: OPP for its own move,
        // its own SWAP, with the input still open.
        let v = after_opening().unexpected(b"MOVE;2\n").unwrap();
        assert_eq!(v.rule, rule::TURN_NO_EXTRA_TURN.id);
        let v = after_swap().unexpected(b"MOVE;2\n").unwrap();
        assert_eq!(v.rule, rule::TURN_MOVE_AFTER_SWAP.id);
        // Once protocheck closed the input, the same states give the
        // end-of-input rule, a warning, once.
        for mut s in [after_opening(), after_swap()] {
            s.input_closed();
            let v = s.unexpected(b"error: unexpected end of input\n").unwrap();
            assert_eq!(v.rule, rule::PROCESS_EOF.id);
            assert_eq!(v.severity, Severity::Warn);
            assert!(
                v.message.starts_with("the bot wrote `error: unexpected end of input` after protocheck closed its input without END: not a move"),
                "{}",
                v.message
            );
            assert!(s.unexpected(b"more\n").is_none(), "reported once");
        }
    }

    #[test]
    fn output_after_the_final_change_is_output_after_end() {
        let mut s = session();
        s.send("START;North").unwrap();
        // North to move with one seed left in its last hole: its move ends
        // the game (North's row is empty afterwards).
        let counts = [0, 0, 0, 0, 0, 0, 1, 40, 0, 0, 0, 0, 0, 0, 5, 52];
        let board = Board::from_counts(7, &counts).unwrap();
        s.position = Position::from_parts(board, Side::North, 40, false).unwrap();
        s.told = Told::Change {
            turn: Turn::You,
            own: false,
        };
        s.known = true;
        judge(&mut s, "MOVE;7");
        let v = s.unexpected(b"MOVE;1\n").unwrap();
        assert_eq!(v.rule, rule::END_OUTPUT_AFTER_END.id);
        // A scripted `CHANGE;…;END` (END not sent yet) ends the game too.
        let mut s = session();
        s.send("START;North").unwrap();
        let counts = [1, 0, 0, 0, 0, 0, 0, 40, 0, 0, 0, 0, 0, 0, 1, 56];
        let board = Board::from_counts(7, &counts).unwrap();
        s.position = Position::from_parts(board, Side::South, 40, false).unwrap();
        s.send("CHANGE;7;0,0,0,0,0,0,0,41,0,0,0,0,0,0,0,57;END")
            .unwrap();
        let v = s.unexpected(b"MOVE;1\n").unwrap();
        assert_eq!(v.rule, rule::END_OUTPUT_AFTER_END.id);
    }

    #[test]
    fn text_left_without_a_line_end_is_a_framing_failure_only_during_the_game() {
        let s = after_opening();
        let v = s.closed(None, Some(b"MOVE;2")).unwrap();
        assert_eq!(v.rule, rule::FRAMING_NO_NEWLINE.id);
        let mut s = after_opening();
        s.input_closed();
        let v = s.closed(None, Some(b"bye")).unwrap();
        assert_eq!(v.rule, rule::PROCESS_EOF.id);
        assert_eq!(v.severity, Severity::Warn);
        let mut s = after_opening();
        s.abort();
        let v = s.closed(None, Some(b"bye")).unwrap();
        assert_eq!(v.rule, rule::END_OUTPUT_AFTER_END.id);
    }

    #[test]
    fn a_crash_is_named_only_before_the_game_ended_and_the_exit_says_how_it_ended() {
        let s = after_opening();
        let v = s.closed(Some(ExitStatus::Code(1)), None).unwrap();
        assert_eq!(v.rule, rule::IO_CRASH.id);
        assert_eq!(
            v.message,
            "the bot exited (exit status 1) before the game ended"
        );
        let mut s = after_opening();
        s.input_closed();
        assert!(s.closed(Some(ExitStatus::Code(1)), None).is_none());
        let v = crate::games::by_id("kalah").unwrap().facts().exited(s.exit_state(), ExitStatus::Code(1)).unwrap();
        assert_eq!(v.rule, rule::END_EXIT_STATUS.id);
        assert_eq!(
            v.message,
            "after protocheck closed its input without END the bot ended with exit status 1, not status 0"
        );
        let mut s = after_opening();
        s.abort();
        let v = crate::games::by_id("kalah").unwrap().facts().exited(s.exit_state(), ExitStatus::Code(3)).unwrap();
        assert_eq!(
            v.message,
            "after the game the bot ended with exit status 3, not status 0"
        );
    }

    #[test]
    fn a_missed_turn_is_named_only_after_an_extra_turn_or_a_swap_notice() {
        let limit = Duration::from_secs(1);
        let mut s = session();
        s.send("START;South").unwrap();
        assert_eq!(s.timed_out(limit).rule, rule::IO_TIMEOUT.id);
        let mut s = session();
        s.send("START;South").unwrap();
        judge(&mut s, "MOVE;1");
        s.opponent("swap", &mut fastrand::Rng::with_seed(1))
            .unwrap();
        assert_eq!(s.timed_out(limit).rule, rule::TURN_MISSED_TURN.id);
    }

    #[test]
    fn no_exit_names_end_or_end_of_input_only_when_it_was_sent() {
        let grace = Duration::from_secs(2);
        let s = after_opening();
        let v = crate::games::by_id("kalah").unwrap().facts().no_exit(s.exit_state(), grace);
        assert_eq!(v.rule, rule::IO_NO_EXIT.id);
        assert_eq!(
            v.message,
            "the bot was still running 2s where the scenario expects it to exit (no END was sent, its input is still open)"
        );
        let mut s = after_opening();
        s.input_closed();
        assert_eq!(crate::games::by_id("kalah").unwrap().facts().no_exit(s.exit_state(), grace).rule, rule::PROCESS_EOF.id);
        let mut s = after_opening();
        s.abort();
        assert_eq!(
            crate::games::by_id("kalah").unwrap().facts().no_exit(s.exit_state(), grace).message,
            "the bot was still running 2s after END"
        );
    }
}
