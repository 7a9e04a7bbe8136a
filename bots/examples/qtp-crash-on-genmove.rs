//! `qtp-crash-on-genmove`: exits with status 1 when asked `genmove`, before
//! answering; otherwise identical to `qtp-correct`.
//!
//! Mimics an engine whose search crashes (quoridor.md §9.2, "Crashes").
//!
//! protocheck must report: `io.crash` (fail) at the first `genmove`, in
//! every scenario that asks one, never the rule a scenario probes
//! (`quoridor.input.argument-case` for `genmove B`, issue 26.7).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-crash-on-genmove", common::Flaw::CrashOnGenmove)
}
