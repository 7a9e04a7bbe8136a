//! `evo-unchecked-traits`: creates its new board with up to three trait cards
//! (the cards after the food and payment cards, in trait-then-food order)
//! without checking that their traits differ.
//!
//! Rules digest §3.4 condition 5. Shows only when those cards share a trait,
//! e.g. a hand of four cards of one trait (with the reference's sorted deck
//! it was dropped at its first `choose`).
//!
//! protocheck must report: `evolution.choose.duplicate-trait` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-unchecked-traits", common::Flaw::UncheckedTraits)
}
