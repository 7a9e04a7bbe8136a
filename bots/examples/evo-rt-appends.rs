//! `evo-rt-appends`: believes RT can add a trait. Its fourth card gives the
//! new board a second trait with RT `[n, 1, c]` although the board, created
//! with one trait card, has only position 0 (then GP and GB as usual).
//!
//! Rules digest §2.6 and D12: traits can be replaced, not added.
//!
//! protocheck must report: `evolution.choose.trait-position` (fail) at the
//! first `choose` (4 or more cards).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-rt-appends", common::Flaw::RtAppends)
}
