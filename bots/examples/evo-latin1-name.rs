//! `evo-latin1-name`: encodes its sign-up name in Latin-1: `"José …"` with
//! `é` as the single byte 0xE9, which is not UTF-8.
//!
//! Rules digest D16: the reference's reader rejects invalid UTF-8 inside a
//! string (no `"ok"`, never seated).
//!
//! protocheck must report: `io.invalid-utf8` (fail).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-latin1-name", common::Flaw::Latin1Name)
}
