//! Which rule a missing reply names. A game words a silence with its most
//! specific diagnosis (the input line a scenario probes, an extra turn the
//! bot missed, a robustness probe): each says the bot did not take what it
//! was sent as its cue to answer, and waits for something else. The
//! transcript shows that only when the bot was proved blocked reading its
//! input (or nothing could be told). A bot proved busy (computing, asleep)
//! was working on its answer, and a reply that came after the limit was an
//! answer: either is the game's `io.timeout`, whatever the scenario probes,
//! so a probe's rule is named only where its question went unanswered.

use super::Run;
use super::seat::LateCause;
use crate::verdict::{RuleInfo, Violation};

impl Run<'_> {
    /// The finding for a reply that did not come in time, given what the
    /// wait saw of the bot.
    pub(super) fn silence_finding(&self, v: Violation, cause: &LateCause) -> Violation {
        if is_about_the_silence(&v) && shows_an_answer_under_way(cause) {
            as_timeout(v, self.timeout_rule())
        } else {
            v
        }
    }

    /// The timed-out reply arrived after all (held back until the bot
    /// exited, or still being computed): the finding it really is, where the
    /// game named a more specific rule. `None`: it is `io.timeout` already.
    pub(super) fn late_finding(&self, timed_out: &Violation) -> Option<Violation> {
        let timeout = self.timeout_rule();
        (timed_out.rule != timeout.id).then(|| as_timeout(timed_out.clone(), timeout))
    }

    /// `io.timeout` as this game words it.
    fn timeout_rule(&self) -> &'static RuleInfo {
        self.game
            .facts()
            .catalogue
            .by_id(crate::shared_rules::IO_TIMEOUT.id)
            .expect("every catalogue holds the shared io.timeout")
    }
}

/// Whether a game's finding for a missing reply is about the silence
/// alone. One that shows what the bot did send (Evolution: a number left
/// without a delimiter, whose end cannot be seen) names that, whatever the
/// bot did next.
fn is_about_the_silence(v: &Violation) -> bool {
    v.actual.is_none()
}

/// Whether the wait proved the bot was not waiting for input: it was
/// working on its answer (computing, or asleep elsewhere than on its input).
fn shows_an_answer_under_way(cause: &LateCause) -> bool {
    matches!(cause, LateCause::Busy { .. })
}

/// `v` filed under `timeout`, with everything the game said of it kept; a
/// robustness wording ("under io.timeout: …") loses its prefix.
fn as_timeout(v: Violation, timeout: &'static RuleInfo) -> Violation {
    if v.rule == timeout.id {
        return v;
    }
    let under = format!("under {}: ", timeout.id);
    let message = v
        .message
        .strip_prefix(&under)
        .map(str::to_string)
        .unwrap_or_else(|| v.message.clone());
    Violation {
        message,
        ..timeout.violation(String::new()).with_details_of(v)
    }
}

impl Violation {
    /// This finding's rule with `other`'s particulars (expected, actual,
    /// step, board, timing).
    fn with_details_of(self, other: Violation) -> Violation {
        Violation {
            expected: other.expected,
            actual: other.actual,
            step: other.step,
            board: other.board,
            timing: other.timing,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Severity;

    static PROBE: RuleInfo = RuleInfo {
        id: "g.input.case",
        severity: Severity::Fail,
        spec: "Arguments are read in any case.",
    };
    static ROBUST: RuleInfo = RuleInfo {
        id: "g.robust.names",
        severity: Severity::Warn,
        spec: "Names may hold digits.",
    };
    static TIMEOUT: RuleInfo = crate::shared_rules::IO_TIMEOUT.worded("Answer in time.");

    #[test]
    fn only_a_bot_proved_busy_loses_the_games_diagnosis_of_a_silence() {
        assert!(shows_an_answer_under_way(&LateCause::Busy {
            computing: true
        }));
        assert!(shows_an_answer_under_way(&LateCause::Busy {
            computing: false
        }));
        // Blocked reading its input: it waits for something else, as the
        // game's diagnosis says. Unknown: nothing shows otherwise.
        assert!(!shows_an_answer_under_way(&LateCause::Blocked));
        assert!(!shows_an_answer_under_way(&LateCause::Unknown));
    }

    #[test]
    fn a_finding_that_shows_what_the_bot_sent_keeps_its_rule() {
        assert!(is_about_the_silence(&PROBE.violation("no reply")));
        let partial = PROBE.violation("`12` has no delimiter").with_actual("12");
        assert!(!is_about_the_silence(&partial));
    }

    #[test]
    fn a_probe_rule_on_a_silence_becomes_the_games_timeout() {
        let v = PROBE
            .violation("no complete response to `genmove B` within 1s")
            .with_expected("= <move>");
        let t = as_timeout(v, &TIMEOUT);
        assert_eq!((t.rule, t.severity), ("io.timeout", Severity::Fail));
        assert_eq!(t.spec, "Answer in time.");
        assert_eq!(t.message, "no complete response to `genmove B` within 1s");
        assert_eq!(t.expected.as_deref(), Some("= <move>"));
        // A warning-level robustness probe becomes the failure it is, in
        // its own words.
        let t = as_timeout(
            ROBUST.violation("under io.timeout: no complete play within 1s"),
            &TIMEOUT,
        );
        assert_eq!((t.rule, t.severity), ("io.timeout", Severity::Fail));
        assert_eq!(t.message, "no complete play within 1s");
        // io.timeout stays as it is.
        let v = TIMEOUT.violation("no reply");
        assert_eq!(as_timeout(v.clone(), &TIMEOUT), v);
    }
}
