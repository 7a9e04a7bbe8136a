//! `evo-attacks-unchecked`: when it attacks, its largest hungry carnivore
//! attacks the largest species of any other player, with no attack test
//! (warning-call, burrowing, climbing, herding and hard-shell ignored).
//!
//! Rules digest §3.7. Shows when the largest species of the others is
//! protected (rules §9.1 items 32–36).
//!
//! protocheck must report: `evolution.feed.target-not-attackable` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-attacks-unchecked", common::Flaw::AttacksUnchecked)
}
