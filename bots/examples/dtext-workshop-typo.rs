//! `dtext-workshop-typo`: plays workshop in the document's typo form,
//! `play-reply reply workshop <card>` (D19). Otherwise identical to
//! `dtext-correct`.
//!
//! protocheck must report: `dominion-text.grammar.workshop-typo` (warn): "Workshop should be played
//! as `play-reply action workshop <card>`; the document's typo form
//! `play-reply reply workshop <card>` is accepted with this warning."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::WorkshopTypo)
}
