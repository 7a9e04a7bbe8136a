//! `dtext-mine-to-gold`: mine trashes the first treasure in hand and gains
//! the dearest stocked treasure, gold while there is one, whatever the
//! trashed one costs (`action mine copper gold`, §9.1 item 17). Otherwise
//! identical to `dtext-correct`; shows when its mine meets a hand whose first
//! treasure is a copper (silver→gold and gold→gold are legal).
//!
//! protocheck must report: `dominion-text.mine.too-expensive`: "The treasure mine gains may cost at
//! most the trashed treasure's cost plus 3."

use protocheck_sample_bots::dominion_text as common;

fn main() {
    common::run(common::Flaw::MineToGold)
}
