//! `kalah-reads-sibling`: before it plays, reads `../NAME/book.txt`, a
//! classmate's file beside its working folder, NAME given by its argument
//! `--classmate=NAME` (a word that names no file, whose folder the sandbox
//! would then let the bot read), and when it
//! cannot, writes the error on stderr and exits with status 1, as a
//! student's bot that assumes its file is there crashes. Otherwise
//! identical to `kalah-correct`.
//!
//! Sandboxed, the read outside its folders is refused (issue 27.2).
//!
//! protocheck must report: `io.crash` (fail) that leads with the sandbox's
//! refusal of that path and `--allow-read` (issue 27.6); with
//! `--allow-read` or `--sandbox off` it passes.

use protocheck_sample_bots::kalah as common;

fn main() {
    let book = std::env::args().find_map(|a| {
        a.strip_prefix("--classmate=")
            .map(|name| format!("../{name}/book.txt"))
    });
    if let Some(path) = book
        && let Err(e) = std::fs::read_to_string(&path)
    {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(1)
    }
    common::run(common::Flaw::None)
}
