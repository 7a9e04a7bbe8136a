//! The robustness probes of dominion-sexp (`robust.*`, rules digest D13):
//! while a probe's question is open, a failure is the probe's warning; a
//! legal play answers it, and what follows is judged under its own rule.

use super::super::catalogue as rule;
use super::super::messages::classify;
use super::super::sexp::Reader;
use super::SexpSession;
use crate::verdict::{RuleInfo, Severity, Violation};

impl SexpSession {
    /// Whether `reply` reads as one play that is legal now.
    pub(super) fn is_legal_play(&self, reply: &[u8]) -> bool {
        let mut reader = Reader::new();
        let (_, outcome) = reader.feed(reply);
        match outcome.or_else(|| reader.finish()) {
            Some(Ok(read)) => classify(&read.datum)
                .is_ok_and(|play| self.game.legal_plays().contains(&play)),
            _ => false,
        }
    }

    /// A violation under the robustness rule when this is such a scenario
    /// and the probe's question is still open: a silence, a crash, stray
    /// output or a reply that cannot be read, before the bot's first legal
    /// play (a bot that cannot read a notification does those). A play the
    /// bot wrote is an answer, judged under its own rule.
    pub(super) fn finding(&self, rule: &'static RuleInfo, message: String) -> Violation {
        match self.robust {
            Some(robust) if rule.severity == Severity::Fail && !self.probe_answered => {
                self.tripped.set(true);
                robust.violation(format!("under {}: {message}", rule.id))
            }
            _ => rule.violation(message),
        }
    }

    /// A robustness scenario's timed-out reply that arrived after all, as
    /// the session ended (`Session::late_reply`): judged as the answer to
    /// the probe's question.
    pub(super) fn late_answer_to_probe(
        &self,
        timed_out: &Violation,
        reply: &[u8],
    ) -> Option<Violation> {
        let robust = self.robust?;
        if timed_out.rule != robust.id {
            return None;
        }
        if self.is_legal_play(reply) {
            // A legal play came after all, held back until the bot left:
            // the bot read the probe's notification and answered it, so the
            // timeout is its own failure (its output is not flushed, or it
            // is slow), not the robustness probe's finding.
            return Some(rule::IO_TIMEOUT.violation(timed_out.message.clone()));
        }
        // What came at the end answers nothing (a parse error, say): the
        // bot did not understand the probe's notification, which is the
        // probe's finding, at its documented severity.
        let shown = crate::shown::message_text(reply);
        Some(robust.violation(format!(
            "under {}: no legal play answered the notification; `{shown}`, which came only as the session ended, is not one. {}",
            rule::IO_TIMEOUT.id,
            timed_out.message
        )))
    }
}
