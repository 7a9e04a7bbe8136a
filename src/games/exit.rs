//! How a game judges the bot's exit, as data in [`GameFacts`]: whether its
//! exit status counts, and how a bot that outlives its exit grace is worded.
//! A session only says where the game stands ([`ExitState`]); the policy
//! turns that into findings the same way for every game.

use super::GameFacts;
use crate::transport::ExitStatus;
use crate::verdict::{RuleInfo, Violation};
use std::time::Duration;

/// Where a tracked game stands for the bot's exit: what it was told, and
/// whether its input is closed. Each game sets only what it tracks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExitState {
    /// The bot was told the game is over by the game's own message and
    /// answered it where one is owed (Kalah: `END` sent; QTP: `quit`
    /// answered).
    pub told_end: bool,
    /// The game is over by the rules (Kalah: after the final `CHANGE;…;END`
    /// even without `END`; QTP: `quit` answered).
    pub over: bool,
    /// protocheck closed the bot's input (or its connection).
    pub input_closed: bool,
}

/// One finding of the policy: its rule and the words after "still running
/// {grace}" or before "… ended with {status}".
pub type Worded = (&'static RuleInfo, &'static str);

/// What a game asks of the bot's exit.
pub struct ExitPolicy {
    /// How the finding names the bot (`the bot`; QTP: `the engine`).
    pub who: &'static str,
    /// How a non-zero exit status after the game is judged; `None`: any
    /// status is accepted (Dominion, Evolution judge none).
    pub status: Option<StatusPolicy>,
    /// How a bot still running after its grace is worded.
    pub no_exit: NoExitPolicy,
}

/// The exit status the game expects is 0: the finding after the game is
/// over ([`ExitState::over`]) and the one otherwise (input closed early).
pub struct StatusPolicy {
    pub after_end: Worded,
    pub otherwise: Worded,
}

/// `io.no-exit` (or the game's own rule) by where the game stands, taken in
/// this order: told the end, input closed, over by the rules, still open.
pub struct NoExitPolicy {
    pub after_told_end: Worded,
    pub after_input_closed: Worded,
    pub after_over: Worded,
    pub input_open: Worded,
}

impl NoExitPolicy {
    /// One wording whatever the state (Evolution: protocheck closed the
    /// connection).
    pub const fn always(worded: Worded) -> NoExitPolicy {
        NoExitPolicy {
            after_told_end: worded,
            after_input_closed: worded,
            after_over: worded,
            input_open: worded,
        }
    }

    /// A game without an end-of-game message (Dominion): the bot outlived
    /// the grace after protocheck closed its input, or after a scripted
    /// `expect: exit` while its input was still open.
    pub const fn after_close(rule: &'static RuleInfo) -> NoExitPolicy {
        let open = (
            rule,
            "where the scenario expects it to exit (its input is still open)",
        );
        NoExitPolicy {
            after_told_end: (rule, "after protocheck closed its input"),
            after_input_closed: (rule, "after protocheck closed its input"),
            after_over: open,
            input_open: open,
        }
    }
}

impl ExitPolicy {
    /// The bot exited with `status` after the game was over (or after its
    /// input closed): the finding, if the game judges the status.
    pub fn exited(&self, state: ExitState, status: ExitStatus) -> Option<Violation> {
        let policy = self.status.as_ref()?;
        if status.success() {
            return None;
        }
        let (rule, when) = if state.over {
            policy.after_end
        } else {
            policy.otherwise
        };
        Some(rule.violation(format!(
            "{when} {} ended with {status}, not status 0",
            self.who
        )))
    }

    /// The bot is still running `grace` after it should have exited.
    pub fn no_exit(&self, state: ExitState, grace: Duration) -> Violation {
        let p = &self.no_exit;
        let (rule, where_) = if state.told_end {
            p.after_told_end
        } else if state.input_closed {
            p.after_input_closed
        } else if state.over {
            p.after_over
        } else {
            p.input_open
        };
        let grace = humantime::format_duration(grace);
        rule.violation(format!("{} was still running {grace} {where_}", self.who))
    }
}

impl GameFacts {
    /// [`ExitPolicy::no_exit`] of this game.
    pub fn no_exit(&self, state: ExitState, grace: Duration) -> Violation {
        self.exit.no_exit(state, grace)
    }

    /// [`ExitPolicy::exited`] of this game.
    pub fn exited(&self, state: ExitState, status: ExitStatus) -> Option<Violation> {
        self.exit.exited(state, status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::by_id;

    fn facts(id: &str) -> &'static GameFacts {
        by_id(id).unwrap().facts()
    }

    const GRACE: Duration = Duration::from_secs(2);

    #[test]
    fn only_kalah_and_quoridor_judge_the_exit_status() {
        let closed = ExitState {
            input_closed: true,
            ..ExitState::default()
        };
        for (id, judged) in [
            ("kalah", true),
            ("quoridor", true),
            ("dominion-sexp", false),
            ("dominion-text", false),
            ("evolution", false),
        ] {
            let f = facts(id);
            assert_eq!(f.exit.status.is_some(), judged, "{id}");
            assert_eq!(f.exited(closed, ExitStatus::Code(3)).is_some(), judged);
            assert!(f.exited(closed, ExitStatus::Code(0)).is_none());
        }
        let v = facts("quoridor")
            .exited(ExitState::default(), ExitStatus::Code(1))
            .unwrap();
        assert_eq!(v.rule, "quoridor.process.eof");
        assert!(
            v.message
                .starts_with("at end of input (no `quit`) the engine ended with"),
            "{}",
            v.message
        );
    }

    #[test]
    fn no_exit_is_worded_from_the_game_facts_and_the_state() {
        let closed = ExitState {
            input_closed: true,
            ..ExitState::default()
        };
        let open = ExitState::default();
        let told = ExitState {
            told_end: true,
            over: true,
            input_closed: true,
        };
        let cases = [
            (
                "kalah",
                closed,
                "kalah.process.eof",
                "the bot was still running 2s after its input reached EOF",
            ),
            (
                "kalah",
                told,
                "io.no-exit",
                "the bot was still running 2s after END",
            ),
            (
                "quoridor",
                told,
                "io.no-exit",
                "the engine was still running 2s after answering `quit`",
            ),
            (
                "dominion-text",
                closed,
                "io.no-exit",
                "the bot was still running 2s after protocheck closed its input",
            ),
            (
                "dominion-sexp",
                open,
                "io.no-exit",
                "the bot was still running 2s where the scenario expects it to exit (its input is still open)",
            ),
            (
                "evolution",
                open,
                "io.no-exit",
                "the bot was still running 2s after protocheck closed the connection",
            ),
        ];
        for (id, state, rule, message) in cases {
            let v = facts(id).no_exit(state, GRACE);
            assert_eq!((v.rule, v.message.as_str()), (rule, message), "{id}");
        }
    }
}
