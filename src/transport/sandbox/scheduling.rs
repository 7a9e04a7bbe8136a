//! The seccomp filter that keeps a bot's hands off other processes'
//! scheduling. Landlock does not cover these calls, and the kernel allows
//! them on any process of the same user: a bot could demote a classmate
//! to `SCHED_IDLE` and make it time out.
//!
//! A seccomp filter sees the arguments, not whose pid they are, so it
//! refuses (`EPERM`) every such call that names a process other than the
//! caller (pid argument not 0), and `setpriority`/`ioprio_set` on a whole
//! user. A runtime that names one of its own threads by id gets `EPERM`
//! too; the runtimes courses use do not (docs/sandbox.md).

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen as Len, SeccompCmpOp as Op, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The compiled filter, once per run; `None` on an architecture seccompiler
/// does not know.
pub fn filter() -> Option<&'static BpfProgram> {
    static FILTER: OnceLock<Option<BpfProgram>> = OnceLock::new();
    FILTER.get_or_init(compile).as_ref()
}

/// `who`/`which` values of setpriority(2) and ioprio_set(2) that name a
/// whole user.
const PRIO_USER: u64 = 2;
const IOPRIO_WHO_USER: u64 = 3;

fn compile() -> Option<BpfProgram> {
    let filter = rules().ok()?;
    filter.try_into().ok()
}

fn rules() -> Result<SeccompFilter, seccompiler::BackendError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)?;
    let other = |arg: u8| SeccompCondition::new(arg, Len::Dword, Op::Ne, 0);
    let equals = |arg: u8, value: u64| SeccompCondition::new(arg, Len::Dword, Op::Eq, value);
    let on_other_pid = || -> Result<Vec<SeccompRule>, seccompiler::BackendError> {
        Ok(vec![SeccompRule::new(vec![other(0)?])?])
    };
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for call in [
        libc::SYS_sched_setscheduler,
        libc::SYS_sched_setparam,
        libc::SYS_sched_setattr,
        libc::SYS_sched_setaffinity,
        libc::SYS_migrate_pages,
    ] {
        rules.insert(call, on_other_pid()?);
    }
    rules.insert(
        libc::SYS_setpriority,
        vec![
            SeccompRule::new(vec![other(1)?])?,
            SeccompRule::new(vec![equals(0, PRIO_USER)?])?,
        ],
    );
    rules.insert(
        libc::SYS_ioprio_set,
        vec![
            SeccompRule::new(vec![other(1)?])?,
            SeccompRule::new(vec![equals(0, IOPRIO_WHO_USER)?])?,
        ],
    );
    // Reading another process's limits is harmless; setting them is not.
    rules.insert(
        libc::SYS_prlimit64,
        vec![SeccompRule::new(vec![
            other(0)?,
            SeccompCondition::new(2, Len::Qword, Op::Ne, 0)?,
        ])?],
    );
    SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_filter_compiles_on_this_machine() {
        let program = super::filter().expect("x86_64 and aarch64 are supported");
        assert!(program.len() > 10, "{} instructions", program.len());
    }
}
