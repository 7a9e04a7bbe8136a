//! `qtp-stderr-equals`: before each `genmove` answer it writes a debug line
//! starting with `=` to stderr (`= debug: black path length Some(8)`);
//! otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2 risks) "Debug output on stderr that starts with
//! `=`. Under the referee it is merged into stdout and can be taken as an
//! answer."
//!
//! protocheck must report: `quoridor.process.stderr-response-like` (warn;
//! fail with `--strict`).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-stderr-equals", common::Flaw::StderrEquals)
}
