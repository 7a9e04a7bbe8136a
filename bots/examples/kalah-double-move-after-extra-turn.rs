//! `kalah-double-move-after-extra-turn`: after an extra turn (`…;YOU` right
//! after its own move) it writes its move twice, in one write. Otherwise
//! identical to `kalah-correct` (which prefers moves that end in its store,
//! so extra turns come early).
//!
//! Mimics a bot that answers the extra turn and then its own stale "my turn"
//! flag once more.
//!
//! protocheck must report, with its default options: the second move as out
//! of turn (`kalah.turn.no-extra-turn` when the turn passed, or
//! `io.unexpected-output` when it came while another extra turn was being
//! reported), fail.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::DoubleMoveAfterExtraTurn)
}
