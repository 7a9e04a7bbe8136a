//! Delimiting responses (quoridor.md §1.4): which output lines belong to the
//! response that is due, and when it is complete.

use super::{ACK_LIMIT, QtpSession, TERMINATOR_GRACE};
use crate::games::Assembly;
use crate::games::quoridor::notation;

/// How far the response being assembled has got (§1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Assembling {
    /// Nothing but blank or `#` lines so far.
    Waiting,
    /// Lines with content but no status character so far: stray lines
    /// before the response, or a response without its status.
    Held,
    /// A status line opened the response; `lines` lines with content so far.
    Open { lines: usize },
    /// An empty line ended a multi-line response; text arriving within the
    /// terminator grace still belongs to it (`quoridor.framing.split-response`).
    Ended,
}

impl QtpSession {
    /// The next piece of the due reply, given the earlier ones (§1.4).
    pub(super) fn assemble(&mut self, so_far: &[u8], piece: &[u8]) -> Assembly {
        // The state after `so_far` is cached, so each line costs O(1) when
        // the controller feeds a reply line by line; anything else (a new
        // reply, a direct call) is worked out from `so_far` again.
        let state = match &self.assembling {
            _ if so_far.is_empty() => Assembling::Waiting,
            (len, last, state) if *len == so_far.len() && so_far.ends_with(last) => *state,
            _ => so_far
                .split_inclusive(|&b| b == b'\n')
                .fold(Assembling::Waiting, |st, l| self.assemble_line(st, l).0),
        };
        let (next, assembly) = self.assemble_line(state, piece);
        self.assembling = (so_far.len() + piece.len(), piece.to_vec(), next);
        assembly
    }

    /// One output line's effect on the response being assembled (§1.4).
    fn assemble_line(&self, state: Assembling, piece: &[u8]) -> (Assembling, Assembly) {
        use notation::OutputLine as L;
        let line = notation::clean_output(&String::from_utf8_lossy(piece)).0;
        let kind = notation::classify_output_line(line.trim_end_matches('\n'));
        let blank = matches!(kind, L::Empty | L::WhitespaceOnly);
        let grace = Assembly::CompleteUnlessMore(TERMINATOR_GRACE);
        match state {
            // A status line opens the response, whatever came before it:
            // blank and `#` lines are skipped, and so are stray lines (the
            // referee reads past every line that does not start with `=`;
            // the parser warns about them, `io.unexpected-output`).
            Assembling::Waiting | Assembling::Held if kind == L::Status => {
                // Once the engine is known to omit the terminator, a response
                // that is one line by definition ends at its status line
                // instead of waiting out the grace every time.
                if self.terminator_missing && self.head_one_line() {
                    (Assembling::Open { lines: 1 }, Assembly::Complete)
                } else {
                    (Assembling::Open { lines: 1 }, grace)
                }
            }
            Assembling::Waiting if kind == L::Text => (Assembling::Held, Assembly::More),
            Assembling::Waiting => (state, Assembly::More),
            // Text without a status, closed by an empty line: unless a
            // status line follows within the grace, it is judged as a
            // response without status character (`quoridor.framing.status`).
            // The grace is the referee's per-line read limit: a bot that
            // goes on computing after a blank line may still answer (an idle
            // bot ends the grace at once). With commands pipelined, a status
            // line that follows is the next command's response.
            Assembling::Held if blank && self.pending.len() > 1 => (state, Assembly::Complete),
            Assembling::Held if blank => (state, Assembly::CompleteUnlessMore(ACK_LIMIT)),
            Assembling::Held => (state, Assembly::More),
            Assembling::Open { lines } if blank => {
                if lines > 1 || self.head_multiline() {
                    // A multi-line response: text that follows within the
                    // grace is its split-off remainder.
                    (Assembling::Ended, grace)
                } else {
                    (state, Assembly::Complete)
                }
            }
            Assembling::Open { .. } if kind == L::Status && !self.head_multiline() => {
                (state, Assembly::StartsNext)
            }
            Assembling::Open { lines } => (Assembling::Open { lines: lines + 1 }, grace),
            Assembling::Ended => match kind {
                L::Status | L::Comment => (Assembling::Waiting, Assembly::StartsNext),
                _ => (state, grace),
            },
        }
    }
}
