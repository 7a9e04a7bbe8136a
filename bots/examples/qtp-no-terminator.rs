//! `qtp-no-terminator`: failure responses end with a single LF, without
//! the terminating empty line (`? illegal move` LF); otherwise identical to
//! `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2, "Broken framing") "error responses with no
//! terminating empty line".
//!
//! protocheck must report: `quoridor.framing.no-terminator` (warn; fail with
//! `--strict`).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-no-terminator", common::Flaw::NoTerminator)
}
