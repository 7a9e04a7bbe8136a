//! `attack-signal-classmate`: plays Kalah as `kalah-correct`, and first
//! SIGKILLs a classmate's bot (a process whose program lies in a
//! classmate's folder, found in `/proc`): that classmate fails the
//! scenario or forfeits the game.
//!
//! protocheck must: refuse the signal; the bot passes, the classmate's
//! verdict is unchanged.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    match common::classmate_bot() {
        Some((pid, id)) => common::try_signal(a, &format!("{id}'s bot"), pid, libc::SIGKILL),
        None => a.no_target("no classmate's bot running"),
    }
}

fn main() {
    common::run("signal-classmate", attack)
}
