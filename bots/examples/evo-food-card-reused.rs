//! `evo-food-card-reused`: takes the first card of its sorted hand as the food
//! card but forgets to remove it from the list, so the same card also pays for
//! the new board (`BT [fc, t]`).
//!
//! Rules digest §3.4 condition 1: all card indices of one Action4 differ.
//!
//! protocheck must report: `evolution.choose.card-reused` (fail) at the first
//! `choose`.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-food-card-reused", common::Flaw::FoodCardReused)
}
