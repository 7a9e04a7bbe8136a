//! The part of the sandbox a bot inherits from the thread that starts it,
//! instead of applying it itself at every start (issue 27: the sandbox's
//! cost per start).
//!
//! A child made by `clone` inherits its thread's `no_new_privs` flag, its
//! seccomp filters and its credentials (so its capability bounding set).
//! Installing the scheduling filter in each child compiled it anew (the
//! kernel's BPF JIT), and emptying the bounding set as root took one
//! credential change per capability: together most of what a sandboxed
//! start cost over an unconfined one. So sandboxed bots are started by a
//! thread of their own (`process::spawn_registered`) that applies both to
//! itself once; that thread does nothing but start bots, so what it
//! carries binds only them. Each bot still enforces its own Landlock
//! ruleset (its own folders and port) in the child, last before `exec`.
//! Whatever the thread could not apply to itself, the child applies, as
//! before.

use super::ChildRules;

/// What a confining thread applies to itself: the same for every start it
/// serves (starts whose rules differ go to another thread).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreadKey {
    /// The seccomp program (by address: it is a `'static` of the run).
    filter: Option<usize>,
    /// Whether its bots' bounding set is emptied (they get a Landlock
    /// ruleset).
    drop_capabilities: bool,
}

impl ThreadKey {
    /// What a thread can carry for `rules`; `None` when there is nothing
    /// to carry (an unconfined start).
    pub fn of(rules: &ChildRules) -> Option<ThreadKey> {
        let key = ThreadKey {
            filter: rules.filter.map(|p| p as *const _ as usize),
            drop_capabilities: rules.drop_capabilities,
        };
        (key.filter.is_some() || key.drop_capabilities).then_some(key)
    }
}

/// What the calling thread has applied to itself, once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Carried {
    /// The seccomp program installed on the thread.
    filter: Option<&'static seccompiler::BpfProgram>,
    /// Its bounding set is empty, or it holds no capability at all (then a
    /// child has none to drop either).
    capabilities: bool,
}

/// Apply to the calling thread what every child of it started with `rules`
/// would apply to itself: `no_new_privs`, the emptied bounding set (where
/// the rules drop capabilities and the thread holds some) and the seccomp
/// filter. Only for a thread that starts nothing but bots with such rules.
pub fn confine_this_thread(rules: &ChildRules) -> Carried {
    let mut carried = Carried::default();
    // SAFETY: prctl and seccomp on the calling thread's own state; the
    // program outlives the call (it is static).
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return carried;
        }
        if rules.drop_capabilities {
            if holds_capabilities(current_capabilities()) {
                drop_bounding_set();
            }
            carried.capabilities =
                bounding_set_empty() || !holds_capabilities(current_capabilities());
        }
        if let Some(program) = rules.filter {
            let fprog = sock_fprog(program);
            if libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                0,
                &fprog as *const libc::sock_fprog,
            ) == 0
            {
                carried.filter = Some(program);
            }
        }
    }
    carried
}

impl Carried {
    /// What a child of the thread still applies itself.
    pub fn left_to_child(&self, mut rules: ChildRules) -> ChildRules {
        if let (Some(ours), Some(its)) = (self.filter, rules.filter)
            && std::ptr::eq(ours, its)
        {
            rules.filter = None;
        }
        if self.capabilities {
            rules.drop_capabilities = false;
        }
        rules
    }
}

/// The kernel's view of a seccompiler program: seccompiler's `sock_filter`
/// is the kernel's struct, field for field (`#[repr(C)]` code, jt, jf, k).
pub fn sock_fprog(program: &'static seccompiler::BpfProgram) -> libc::sock_fprog {
    libc::sock_fprog {
        len: program.len() as libc::c_ushort,
        filter: program.as_ptr() as *mut libc::sock_filter,
    }
}

/// The kernel's capability sets of one thread, as `capget` fills them
/// (version 3: two 32-bit words per set).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct CapabilitySets {
    pub effective: u32,
    pub permitted: u32,
    pub inheritable: u32,
}

/// This thread's capability sets; every bit set where `capget` fails, so
/// that a failure never skips a drop. A plain system call: safe in a
/// `vfork` child.
pub fn current_capabilities() -> [CapabilitySets; 2] {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    const VERSION_3: u32 = 0x2008_0522;
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let mut sets = [CapabilitySets::default(); 2];
    // SAFETY: capget writes two `CapabilitySets` (version 3) for pid 0,
    // the calling thread.
    let got = unsafe { libc::syscall(libc::SYS_capget, &mut header, sets.as_mut_ptr()) };
    if got != 0 {
        let all = CapabilitySets {
            effective: u32::MAX,
            permitted: u32::MAX,
            inheritable: u32::MAX,
        };
        return [all; 2];
    }
    sets
}

/// Whether a thread with these sets holds any capability (effective,
/// permitted or inheritable; ambient ones are always also permitted).
pub fn holds_capabilities(sets: [CapabilitySets; 2]) -> bool {
    sets.iter()
        .any(|s| s.effective != 0 || s.permitted != 0 || s.inheritable != 0)
}

/// `CAP_SETPCAP`, which dropping from the bounding set needs: dropped last.
const CAP_SETPCAP: libc::c_ulong = 8;

/// Empty the calling thread's bounding set: a process run as root keeps
/// no capability past `exec` (with them it could read the non-dumpable
/// protocheck's /proc files, or other users' files). Each drop is a
/// credential change of its own, so only the capabilities still in the set
/// go. Only `prctl`: safe in a `vfork` child.
pub fn drop_bounding_set() {
    for cap in (0..64).filter(|&c| c != CAP_SETPCAP).chain([CAP_SETPCAP]) {
        // SAFETY: PR_CAPBSET_READ/DROP change only this thread's bounding set.
        unsafe {
            if libc::prctl(libc::PR_CAPBSET_READ, cap, 0, 0, 0) == 1 {
                libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
            }
        }
    }
}

/// Whether no capability is left in the calling thread's bounding set.
fn bounding_set_empty() -> bool {
    // SAFETY: PR_CAPBSET_READ only reads; past the last capability it fails.
    (0..64).all(|cap| unsafe { libc::prctl(libc::PR_CAPBSET_READ, cap, 0, 0, 0) } != 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_capability_in_any_set_counts_as_holding_one() {
        let none = [CapabilitySets::default(); 2];
        assert!(!holds_capabilities(none));
        for word in 0..2 {
            for set in 0..3 {
                let mut sets = none;
                let bits = &mut sets[word];
                *[
                    &mut bits.effective,
                    &mut bits.permitted,
                    &mut bits.inheritable,
                ][set] = 1 << 3;
                assert!(holds_capabilities(sets), "word {word}, set {set}");
            }
        }
    }

    #[test]
    fn a_child_applies_what_its_thread_does_not_carry() {
        let Some(filter) = super::super::scheduling::filter() else {
            return; // an architecture seccompiler does not know
        };
        let rules = ChildRules {
            ruleset_fd: 7,
            filter: Some(filter),
            drop_capabilities: true,
            file_size: Some(1),
        };
        let nothing = Carried::default().left_to_child(rules);
        assert!(nothing.filter.is_some() && nothing.drop_capabilities);
        let all = Carried {
            filter: Some(filter),
            capabilities: true,
        }
        .left_to_child(rules);
        assert!(all.filter.is_none() && !all.drop_capabilities);
        // The ruleset and the limits stay the child's own.
        assert_eq!((all.ruleset_fd, all.file_size), (7, Some(1)));
        // Another program than the thread's is the child's to load.
        let other: &'static seccompiler::BpfProgram = Box::leak(Box::new(filter.clone()));
        let mine = Carried {
            filter: Some(other),
            capabilities: false,
        }
        .left_to_child(rules);
        assert!(mine.filter.is_some_and(|f| std::ptr::eq(f, filter)));
        assert!(mine.drop_capabilities);
        assert_eq!(ThreadKey::of(&ChildRules::none()), None);
        assert!(ThreadKey::of(&rules).is_some());
    }
}
