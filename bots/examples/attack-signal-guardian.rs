//! `attack-signal-guardian`: plays Kalah as `kalah-correct`, and first
//! SIGKILLs its own run's protocheck guardian (the process, `protocheck
//! __protocheck-guardian`, that kills a run's bots when protocheck dies):
//! with it gone, a bot that outlives a killed protocheck is never cleaned
//! up.
//!
//! protocheck must: refuse the signal; the bot passes.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    match common::guardian() {
        Some(pid) => {
            common::try_signal(a, "a protocheck guardian", pid, libc::SIGKILL);
        }
        None => a.no_target("no guardian on the machine"),
    }
}

fn main() {
    common::run("signal-guardian", attack)
}
