//! `evo-tagged-growth`: writes GP and GB in the older tagged form
//! `["population", b, c]` / `["body", b, c]` of earlier course assignments.
//!
//! Mimics rules digest §9.2 item 2 (D7; recorded in
//! `oracle/evolution/games/tagged-growth/`). With 4 or more cards its Action4
//! always holds a GP, so it fails at its first `choose`.
//!
//! protocheck must report: `evolution.choose.tagged-growth` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-tagged-growth", common::Flaw::TaggedGrowth)
}
