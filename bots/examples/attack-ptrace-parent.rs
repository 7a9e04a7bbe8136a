//! `attack-ptrace-parent`: plays Kalah as `kalah-correct`, and first
//! attaches to the protocheck that runs it (its parent) with ptrace
//! (`PTRACE_SEIZE`; it then stops it with `PTRACE_INTERRUPT` and detaches,
//! so that a run without the sandbox goes on; a real attacker would read
//! and write its memory).
//!
//! protocheck must: refuse the attach; the bot passes.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    let pid = common::parent();
    // SAFETY: ptrace and waitpid with plain integer arguments.
    let result = common::check(unsafe { libc::ptrace(libc::PTRACE_SEIZE, pid, 0usize, 0usize) });
    if result.is_ok() {
        unsafe {
            libc::ptrace(libc::PTRACE_INTERRUPT, pid, 0usize, 0usize);
            let mut status = 0;
            libc::waitpid(pid, &mut status, libc::__WALL);
            libc::ptrace(libc::PTRACE_DETACH, pid, 0usize, 0usize);
        }
    }
    a.outcome(
        &format!("PTRACE_SEIZE protocheck (pid {pid})"),
        result,
        |_| "attached".into(),
    );
}

fn main() {
    common::run("ptrace-parent", attack)
}
