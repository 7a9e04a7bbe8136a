//! `kalah-reads-sibling`: before it plays, reads the file its argument
//! `--book=PATH` names (a test gives a classmate's file, `../other/…`; the
//! `--book=` keeps the word from naming a file, whose folder the sandbox
//! would let the bot read), and when it
//! cannot, writes the error on stderr and exits with status 1, as a
//! student's bot that assumes its file is there crashes. Otherwise
//! identical to `kalah-correct`.
//!
//! Sandboxed, the read outside its folders is refused (issue 27.2).
//!
//! protocheck must report: `io.crash` (fail) that leads with the sandbox's
//! refusal of that path and `--allow-read` (issue 27.6); with
//! `--allow-read` or `--sandbox off` it passes.

#[path = "common/mod.rs"]
mod common;

fn main() {
    let book = std::env::args().find_map(|a| a.strip_prefix("--book=").map(str::to_string));
    if let Some(path) = book
        && let Err(e) = std::fs::read_to_string(&path)
    {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(1)
    }
    common::run(common::Flaw::None)
}
