//! `evo-correct`: a conforming Evolution client (rules digest §1–§5). Nothing
//! is wrong with it; protocheck must report no failure (warnings only where the
//! dealer's opponents make the strategy's attack legal but rules-forbidden:
//! `evolution.feed.attack-rules-forbid`, as for the reference client).
//!
//! It signs up as `"evo-correct"`, answers `choose` and `feedNext` with the
//! course's strategy, writes compact JSON plus one space, and exits 0 when the
//! server closes the socket. See `common/mod.rs`.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-correct", common::Flaw::None)
}
