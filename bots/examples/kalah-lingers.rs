//! `kalah-lingers`: never exits after `END`; it sleeps forever instead (it
//! still exits on EOF when no `END` came). Otherwise identical to
//! `kalah-correct`.
//!
//! Mimics (kalah.md §9.2) "Not exiting on a bare END" / an agent that waits for
//! the engine to kill it.
//!
//! protocheck must report: `io.no-exit` (warn), then kill the process group.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::Lingers)
}
