//! `evo-unchecked-traits`: creates its new board with up to three trait cards
//! (the cards after the food and payment cards, sorted by trait) without
//! checking that their traits differ.
//!
//! Rules digest §3.4 condition 5. Shows only when those cards share a trait:
//! always with the reference's sorted deck (first hands of four `ambush`
//! cards), or when protocheck deals a hand holding two cards of one trait in
//! those positions (e.g. four cards of one trait).
//!
//! protocheck must report: `evolution.choose.duplicate-trait` (fail).

#[path = "common/mod.rs"]
mod common;

fn main() -> std::process::ExitCode {
    common::run("evo-unchecked-traits", common::Flaw::UncheckedTraits)
}
