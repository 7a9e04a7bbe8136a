//! `evo-closes-early`: closes its socket and exits 0 right after its first
//! Action4, as a client that handles exactly one round does.
//!
//! Rules digest D17: the reference drops it at its next request.
//!
//! protocheck must report: `io.crash` (fail when a later request was due, as
//! in every real game; warn if nothing more would have been asked).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-closes-early", common::Flaw::ClosesEarly)
}
