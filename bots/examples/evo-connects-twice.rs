//! `evo-connects-twice`: starts its player twice: once the first connection
//! has its `"ok"`, a second connection signs up too and then stays open
//! (silent) until the client exits. The first connection plays correctly.
//!
//! Rules digest §1.1: exactly one connection per player.
//!
//! protocheck must report: `evolution.signup.extra-connection` (warn) only.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-connects-twice", common::Flaw::ConnectsTwice)
}
