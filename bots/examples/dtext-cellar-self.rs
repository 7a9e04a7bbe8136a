//! `dtext-cellar-self`: lists the cellar itself first among cellar's discards
//! (`action cellar cellar estate`): it checks the discards against the hand
//! of the request, which still holds the cellar (the JSON successor's
//! defect, §6.3). Otherwise identical to `dtext-correct`; shows whenever it
//! plays a cellar without a second cellar in hand.
//!
//! protocheck must report: `dominion-text.cellar.no-valid-cards`: "A non-empty cellar list must
//! start with a card in hand (else the cellar and the action are consumed
//! with no effect)."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::CellarSelf)
}
