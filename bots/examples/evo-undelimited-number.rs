//! `evo-undelimited-number`: writes every value with nothing after it (the
//! language's plain JSON encoder, no trailing space or newline).
//!
//! Mimics rules digest §9.2 item 1, the most common defect of course clients.
//! Arrays end with `]`, so the sign-up and every Action4 survive; the first
//! VegetarianChoice is a bare number like `0`, which the reference's reader
//! cannot see the end of (§1.4): it is dropped after 1 s.
//!
//! protocheck must report: `evolution.frame.undelimited-number` (fail) at the
//! first `feedNext` it answers with a species index.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-undelimited-number", common::Flaw::Undelimited)
}
