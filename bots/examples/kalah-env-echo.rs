//! `kalah-env-echo`: writes its whole environment to stderr, one
//! `env: NAME=VALUE` line each in name order, then plays as `kalah-correct`.
//! Plays correctly: it shows what a bot gets from protocheck's environment
//! (tests/integration/bot_environment.rs), a CI token that leaks included, in the
//! report's stderr tail.
//!
//! protocheck must report: nothing (pass).

use protocheck_sample_bots::kalah as common;

use std::io::Write;

fn main() {
    let mut vars: Vec<(String, String)> = std::env::vars_os()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.to_string_lossy().into_owned(),
            )
        })
        .collect();
    vars.sort();
    let mut err = std::io::stderr().lock();
    for (name, value) in vars {
        let _ = writeln!(err, "env: {name}={value}");
    }
    let _ = err.flush();
    drop(err);
    common::run(common::Flaw::None)
}
