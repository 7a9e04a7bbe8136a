//! Helpers shared by the bench binaries.
#![allow(dead_code)]

use protocheck::controller::RunConfig;
use protocheck::transport::{BotCommand, Limits};
use std::process::Command;
use std::time::Duration;

/// Build a sample bot (bots/examples/<name>.rs) in release mode and return
/// its path.
pub fn build_example(name: &str) -> Option<String> {
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "protocheck-sample-bots",
            "--example",
            name,
        ])
        .status()
        .ok()?;
    let path = format!(
        "{}/target/release/examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    (status.success() && std::path::Path::new(&path).exists()).then_some(path)
}

/// The run configuration of a default command line for `bot`, with the
/// silence/pause window set to `silence` (`None`: the game's default).
pub fn config(bot: &str, silence: Option<Duration>) -> RunConfig {
    RunConfig {
        bot: BotCommand {
            program: bot.into(),
            args: vec![],
            env: Default::default(),
            workdir: None,
        },
        limits: Limits::default(),
        timeout: None,
        startup_timeout: None,
        exit_grace: None,
        silence,
        strict: false,
        max_output: protocheck::controller::bounds::DEFAULT_MAX_OUTPUT,
        tcp: Default::default(),
        pictures: false,
        stop: Default::default(),
    }
}
