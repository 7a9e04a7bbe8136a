//! `attack-signal-classmate`: plays Kalah as `kalah-correct`, and first
//! SIGKILLs a classmate's bot (a process whose program lies in a
//! classmate's folder, found in `/proc`): that classmate fails the
//! scenario or forfeits the game.
//!
//! protocheck must: refuse the signal; the bot passes, the classmate's
//! verdict is unchanged.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    // A classmate's bot found may end before the signal reaches it (a short
    // scenario): then another is looked for, so that the attack meets a
    // live one whenever one runs within the patience.
    let until = std::time::Instant::now() + common::PATIENCE;
    loop {
        let Some((pid, id)) = common::classmate_bot() else {
            return a.no_target("no classmate's bot running");
        };
        if common::try_signal(a, &format!("{id}'s bot"), pid, libc::SIGKILL)
            || std::time::Instant::now() >= until
        {
            return;
        }
    }
}

fn main() {
    common::run("signal-classmate", attack)
}
