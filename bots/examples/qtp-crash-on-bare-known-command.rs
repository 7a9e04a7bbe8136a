//! `qtp-crash-on-bare-known-command`: dies of SIGSEGV on `known_command`
//! without a command name, as two public C engines do; otherwise identical
//! to `qtp-correct`, and it starts normally with `-seed <n>`.
//!
//! protocheck must report the crash on the malformed command:
//! `quoridor.syntax.malformed` ("does not crash the engine"), never
//! `quoridor.process.seed-arg`, even when `known_command` is the first
//! command of the session.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run(
        "qtp-crash-on-bare-known-command",
        common::Flaw::CrashOnBareKnownCommand,
    )
}
