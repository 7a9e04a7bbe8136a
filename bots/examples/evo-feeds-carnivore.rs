//! `evo-feeds-carnivore`: when it feeds (after fat-tissue), it names its
//! largest hungry species as a VegetarianChoice without checking the carnivore
//! trait.
//!
//! Rules digest §2.8: a carnivore eats only by attacking. Shows when it is
//! asked while its largest hungry species is a carnivore (rules §9.1 item 28).
//!
//! protocheck must report: `evolution.feed.vegetarian-is-carnivore` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-feeds-carnivore", common::Flaw::FeedsCarnivore)
}
