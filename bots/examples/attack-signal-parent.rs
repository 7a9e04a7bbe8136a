//! `attack-signal-parent`: plays Kalah as `kalah-correct`, and first stops
//! the protocheck that runs it (its parent) with SIGSTOP (and lets it go on
//! with SIGCONT 50 ms later, so that a run without the sandbox can show the
//! stop worked; a real attacker would leave it stopped, or SIGKILL it).
//!
//! protocheck must: refuse the signal (Landlock scopes signals to the bot's
//! own sandbox); the bot passes.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    common::try_signal(a, "protocheck", common::parent(), libc::SIGSTOP);
}

fn main() {
    common::run("signal-parent", attack)
}
