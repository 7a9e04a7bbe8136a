//! `evo-exact-ok`: compares its first socket read with the exact bytes `"ok"`.
//! The server writes `"ok"` followed by a space, so the comparison fails and it
//! exits 1 right after signing up.
//!
//! Mimics rules digest §9.2 item 6 (a client that choked on the space after a
//! value).
//!
//! protocheck must report: `io.crash` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-exact-ok", common::Flaw::ExactOk)
}
