//! `evo-fat-ignores-store`: asks fat-tissue to store its whole body size
//! (`[s, body]`), forgetting the fat already stored.
//!
//! Rules digest D6: the amount may be at most `body − fat store`. Shows when it
//! is asked while its fat-tissue species already holds some fat.
//!
//! protocheck must report: `evolution.feed.fat-amount` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-fat-ignores-store", common::Flaw::FatIgnoresStore)
}
