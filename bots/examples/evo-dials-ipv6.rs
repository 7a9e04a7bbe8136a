//! `evo-dials-ipv6`: dials the IPv6 loopback `[::1]` on the right port (what
//! `localhost` resolves to first on most Linux hosts) and never tries
//! 127.0.0.1; it keeps retrying every 200 ms until it is killed.
//!
//! Rules digest §1.1: protocheck listens on 127.0.0.1 only.
//!
//! protocheck must report: `io.no-connect` (fail) at the startup timeout.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-dials-ipv6", common::Flaw::DialsIpv6)
}
