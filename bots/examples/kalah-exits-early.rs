//! `kalah-exits-early`: exits with status 0 right after writing its 3rd
//! message, without waiting for the `CHANGE` that answers it. Otherwise
//! identical to `kalah-correct`.
//!
//! Mimics kalah.md §5 "Exiting too early is dangerous": an agent that quits as
//! soon as it believes its work is done (for example right after what it
//! computes to be the final move), before `CHANGE;…;END`.
//!
//! protocheck must report: `io.crash` (fail).

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::ExitsEarly)
}
