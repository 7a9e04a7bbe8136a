//! `evo-acks-start`: answers every `start` with `"ok"`, although `start`
//! needs no reply.
//!
//! Rules digest §9.1 item 9: the `"ok"` arrives while nothing is asked and the
//! reference reads it as the reply to the next `choose`.
//!
//! protocheck must report: `evolution.flow.early-reply` (warn), then
//! `evolution.choose.shape` (fail) at the `choose`.

#[path = "common/mod.rs"]
mod common;

fn main() -> std::process::ExitCode {
    common::run("evo-acks-start", common::Flaw::AcksStart)
}
