//! `evo-declines-attack`: answers `false` ("decline to feed", which the
//! document allows) where it would have to attack.
//!
//! Rules digest D1: the reference never accepts `false`. Shows when it is asked
//! while only its carnivores are hungry (no vegetarian or fat option it
//! prefers).
//!
//! protocheck must report: `evolution.feed.false-reply` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-declines-attack", common::Flaw::DeclinesAttack)
}
