//! `evo-signup-raw-tab`: builds its sign-up by string concatenation, so the
//! string holds a raw tab byte (`"evo-signup-raw-tab<TAB>v1"`).
//!
//! Rules digest D16: JSON forbids raw control characters in strings, the
//! reference's reader accepts them; the game goes on normally.
//!
//! protocheck must report: `evolution.frame.control-char-in-string` (warn)
//! only.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-signup-raw-tab", common::Flaw::SignupRawTab)
}
