//! `qtp-slow-genmove`: sleeps before every `genmove` answer, 3 s by default
//! (`QTP_BOT_DELAY_MS` overrides it); otherwise identical to `qtp-correct`.
//!
//! Mimics a search too slow for the limit (quoridor.md §9.2). The bot is
//! busy, not blocked reading its input, so the silence is its own failure
//! whatever line the scenario probes.
//!
//! protocheck must report: `io.timeout` (fail) at the first `genmove` when
//! `--timeout` is shorter than the delay, in every scenario that asks one,
//! never the rule a scenario probes (`quoridor.input.argument-case` in
//! `input-argument-case`, issue 26.7).

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-slow-genmove", common::Flaw::SlowGenmove)
}
