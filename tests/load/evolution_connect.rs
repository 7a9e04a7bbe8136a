//! The Evolution connect limit under load (moved from
//! tests/integration/evolution_cli.rs: its CPU hogs keep a CPU busy, so it
//! runs in tests/load/, where no other test's verdict runs under them).

use crate::common;
use common::*;

/// Issue 26.2: the connect limit, like every limit on time, is judged in the
/// client's own time. A client that computes a few tenths of a second before
/// it connects, kept waiting for a CPU by busy threads pinned to its CPU (as
/// on a loaded grading machine), takes seconds of wall time to connect; it
/// connects within its own time all the same, and the verdict does not move.
#[test]
fn a_client_kept_waiting_for_a_cpu_before_it_connects_is_judged_in_its_own_time() {
    let _alone = cpu_hogs_alone();
    if !cfg!(target_os = "linux") || !measures_cpu_wait() {
        eprintln!("skipped: this system does not tell how long a process waited for a CPU");
        return;
    }
    if std::process::Command::new("taskset")
        .args(["-c", "0", "true"])
        .status()
        .map_or(true, |s| !s.success())
    {
        eprintln!("skipped: no taskset to keep the client on one CPU");
        return;
    }
    let client = bot("evo-correct");
    let cmd = format!(
        "taskset -c 0 sh -c 'i=0; while [ $i -lt 600000 ]; do i=$((i+1)); done; exec {client}'"
    );
    let args = [
        "--game",
        "evolution",
        "--filter",
        "minimal-hand-of-four",
        "--startup-timeout",
        "2s",
        "--bot-cmd",
        &cmd,
    ];
    let idle = run_json(&args, &[]);
    assert_eq!(
        idle.code,
        0,
        "on an idle CPU: {:?}\n{}",
        idle.rules(),
        idle.messages()
    );
    let _hogs = CpuHogs::pinned(0, 7);
    let loaded = run_json(&args, &[]);
    assert_eq!(
        (loaded.code, loaded.rules()),
        (0, vec![]),
        "kept waiting for a CPU: {}",
        loaded.messages()
    );
}
