//! `attack-demote-classmate`: plays Kalah as `kalah-correct`, and first
//! demotes a classmate's bot (found in `/proc`) to the idle scheduling
//! policy (`sched_setscheduler(pid, SCHED_IDLE)`) and to the lowest
//! priority (`setpriority(PRIO_PROCESS, pid, 19)`): on a busy machine the
//! classmate then waits for a CPU for as long as anything else runs.
//!
//! protocheck must: refuse both calls (a seccomp filter refuses scheduling
//! calls aimed at another process); the bot passes, the classmate's
//! verdict is unchanged.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    let Some((pid, id)) = common::classmate_bot() else {
        return a.no_target("no classmate's bot running");
    };
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: plain system calls with initialised arguments.
    let idle =
        common::check(unsafe { libc::sched_setscheduler(pid, libc::SCHED_IDLE, &param) } as i64);
    a.outcome(
        &format!("SCHED_IDLE for {id}'s bot (pid {pid})"),
        idle,
        |_| "set".into(),
    );
    // SAFETY: as above.
    let nice = common::check(
        unsafe { libc::setpriority(libc::PRIO_PROCESS, pid as libc::id_t, 19) } as i64,
    );
    a.outcome(&format!("nice 19 for {id}'s bot (pid {pid})"), nice, |_| {
        "set".into()
    });
}

fn main() {
    common::run("demote-classmate", attack)
}
