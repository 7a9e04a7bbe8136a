//! `hostile-grandchild`: starts a grandchild (`sleep 1000`) that inherits its
//! stdin, stdout and stderr, and then exits at once with status 0; the
//! grandchild keeps the pipes open. Game-agnostic.
//!
//! protocheck must notice the bot's exit from the process status, not from
//! stdout EOF (which never comes), report `io.crash`, and kill the whole
//! process group so that the `sleep` does not outlive the run.

use std::process::Command;

fn main() {
    // Same process group as the bot: protocheck's group kill must reach it.
    let child = Command::new("sleep").arg("1000").spawn();
    if let Err(e) = child {
        eprintln!("hostile-grandchild: cannot start sleep: {e}");
        std::process::exit(1);
    }
    // Do not wait: the child is re-parented and keeps the pipes.
}
