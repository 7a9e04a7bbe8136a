//! `evo-new-board-off-by-one`: names the board created by its BT `n + 1`
//! instead of `n` (n = boards it owns) in its GP, GB and RT.
//!
//! Rules digest §2.6: board `n + k` is the one created by the k-th BT
//! (0-based); the course's own bad client ("bad pop growth") does the same
//! with `n + 2`. With 4 or more cards the Action4 always has a GP.
//!
//! protocheck must report: `evolution.choose.board-out-of-range` (fail) at the
//! first `choose`.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-new-board-off-by-one", common::Flaw::NewBoardOffByOne)
}
