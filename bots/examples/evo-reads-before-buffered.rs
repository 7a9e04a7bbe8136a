//! `evo-reads-before-buffered`: decodes one value per socket read and keeps
//! the rest, but reads the socket again before looking at what it kept. When
//! two messages arrive in one segment (typically `start` and `choose`) it
//! waits for the second forever.
//!
//! Mimics rules digest §9.2 item 4. Shows only when protocheck writes two
//! messages at once (rules §9.1 item 4, the coalescing scenario).
//!
//! protocheck must report: `io.timeout` (fail) at that `choose`.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run(
        "evo-reads-before-buffered",
        common::Flaw::ReadsBeforeBuffered,
    )
}
