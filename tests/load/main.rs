//! The tests that keep the CPUs busy on purpose (CPU hogs: verdicts that
//! must not depend on load, pacing under load), in a test binary of their
//! own, so that no other test's verdict runs under their load. Their hogs
//! never overlap: each test that starts them takes
//! `common::cpu_hogs_alone()` first.

#[path = "../common/mod.rs"]
mod common;

mod load;
mod pace;
