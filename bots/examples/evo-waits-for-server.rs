//! `evo-waits-for-server`: connects and waits for the server to speak first,
//! so it never signs up (it exits when the server closes the socket).
//!
//! Rules digest §1.1 ("the client speaks first") and §9.1 item 12.
//!
//! protocheck must report: `io.timeout` (fail) after the 5 s sign-up limit.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-waits-for-server", common::Flaw::WaitsForServer)
}
