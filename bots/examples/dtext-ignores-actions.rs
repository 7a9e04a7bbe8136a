//! `dtext-ignores-actions`: ignores the actions counter: it plays an action card whenever it holds
//! one, also at `actions 0` (e.g. a second smithy after a smithy, §9.1
//! item 12). Otherwise identical to `dtext-correct`.
//!
//! protocheck must report: `dominion-text.action.no-actions`: "An action may be played only while
//! actions ≥ 1; otherwise the turn ends without a buy."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::NoActions)
}
