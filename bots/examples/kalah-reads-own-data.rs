//! `kalah-reads-own-data`: before it plays, reads `kalah-data.txt` from the
//! folder of its own program (as a bot loads its opening book or weights),
//! and exits with status 1, the error on stderr, when it cannot. Otherwise
//! identical to `kalah-correct`: nothing is wrong with it.
//!
//! The sandbox lets a bot read its program's folder (issue 27.2, docs/sandbox.md),
//! so it passes sandboxed, wherever its working folder is.
//!
//! protocheck must report: nothing (pass).

use protocheck_sample_bots::kalah as common;

fn main() {
    let data = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join("kalah-data.txt")));
    let Some(data) = data else {
        eprintln!("cannot find my own folder");
        std::process::exit(1)
    };
    if let Err(e) = std::fs::read_to_string(&data) {
        eprintln!("cannot read {}: {e}", data.display());
        std::process::exit(1)
    }
    common::run(common::Flaw::None)
}
