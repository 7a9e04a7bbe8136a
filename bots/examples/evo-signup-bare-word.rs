//! `evo-signup-bare-word`: writes its sign-up name without quotes
//! (`evo-signup-bare-word ` is not JSON).
//!
//! Rules digest §9.1 item 13 (`hello` as a bare word) and §9.3 (the course's
//! own client that signs up with 100 bytes of `a`).
//!
//! protocheck must report: `evolution.frame.invalid-json` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-signup-bare-word", common::Flaw::SignupBareWord)
}
