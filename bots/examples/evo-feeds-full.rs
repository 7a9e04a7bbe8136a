//! `evo-feeds-full`: when it feeds (after fat-tissue), it names its largest
//! non-carnivore species as a VegetarianChoice without checking that it is
//! hungry.
//!
//! Rules digest §3.5: only hungry species are options. Shows when it is asked
//! while its largest vegetarian is already fed (rules §9.1 item 27).
//!
//! protocheck must report: `evolution.feed.not-hungry` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-feeds-full", common::Flaw::FeedsFull)
}
