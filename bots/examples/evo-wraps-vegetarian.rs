//! `evo-wraps-vegetarian`: writes a VegetarianChoice as a one-element array
//! `[s]` instead of the bare number `s`.
//!
//! Rules digest §2.8: a VegetarianChoice is a Natural. Shows at the first
//! `feedNext` it answers with a species to feed.
//!
//! protocheck must report: `evolution.feed.shape` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-wraps-vegetarian", common::Flaw::WrapsVegetarian)
}
