//! `evo-byte-order-mark`: writes a UTF-8 byte-order mark (EF BB BF) before
//! its sign-up, as a .NET `StreamWriter` created with `Encoding.UTF8` does.
//!
//! Rules digest §1.2: only space, tab, LF and CR may sit between values; the
//! reference's reader rejects a byte-order mark.
//!
//! protocheck must report: `evolution.frame.non-json-whitespace` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-byte-order-mark", common::Flaw::ByteOrderMark)
}
