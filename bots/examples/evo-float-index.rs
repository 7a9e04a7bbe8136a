//! `evo-float-index`: writes its food card index as a float (`2.0`), as a
//! client computing indices with floating-point arithmetic does.
//!
//! Rules digest D10: a Natural has no fraction part; the reference drops the
//! player.
//!
//! protocheck must report: `evolution.value.not-natural` (fail) at the first
//! `choose`.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-float-index", common::Flaw::FloatIndex)
}
