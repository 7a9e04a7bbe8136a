//! `dtext-remodel-estate-duchy`: remodel turns an estate into a duchy whenever it holds an estate
//! (`action remodel estate duchy`, cost 2 → 5, §9.1 item 20). Otherwise
//! identical to `dtext-correct`.
//!
//! protocheck must report: `dominion-text.remodel.too-expensive`: "The card remodel gains may cost
//! at most the trashed card's cost plus 2."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::RemodelEstateDuchy)
}
