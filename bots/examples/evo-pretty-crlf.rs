//! `evo-pretty-crlf`: every value it writes (sign-up and replies) is
//! pretty-printed over several lines with CRLF line ends and followed by CRLF.
//!
//! Not a flaw (rules digest §9.2 item 8, D9: any JSON whitespace between and
//! inside values is legal; one course client indented every reply). A positive
//! sample: protocheck must report no failure.

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-pretty-crlf", common::Flaw::PrettyCrlf)
}
