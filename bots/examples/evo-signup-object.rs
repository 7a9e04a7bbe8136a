//! `evo-signup-object`: signs up with a JSON object `{"name":"evo-signup-object"}`
//! instead of a JSON string.
//!
//! Rules digest §2.3: the sign-up is "any JSON string"; the reference sends no
//! `"ok"` for anything else and never seats the player.
//!
//! protocheck must report: `evolution.signup.not-a-string` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-signup-object", common::Flaw::SignupObject)
}
