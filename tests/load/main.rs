//! The tests that keep the CPUs busy on purpose (CPU hogs: verdicts that
//! must not depend on load, pacing under load), in a test binary of their
//! own, so that no other test's verdict runs under their load. A test that
//! starts hogs takes `common::cpu_hogs_alone()` first, every other test
//! here `common::beside_no_cpu_hogs()`: no test runs beside another's hogs.

#[path = "../common/mod.rs"]
mod common;

mod evolution_connect;
mod load;
mod pace;
mod quoridor_ack;
