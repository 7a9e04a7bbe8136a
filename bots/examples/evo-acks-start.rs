//! `evo-acks-start`: answers every `start` with `"ok"`, although `start`
//! needs no reply.
//!
//! Rules digest §9.1 item 9: the `"ok"` arrives while nothing is asked and the
//! reference reads it as the reply to the next `choose`.
//!
//! protocheck must report: `evolution.choose.shape` (fail) at the `choose`,
//! and `evolution.flow.early-reply` (warn) when the `"ok"` arrives before
//! the `choose` is written (when `start` and `choose` go out together, the
//! `"ok"` is simply the first value after the request).

use protocheck_sample_bots::evolution as common;

fn main() -> std::process::ExitCode {
    common::run("evo-acks-start", common::Flaw::AcksStart)
}
