//! Helpers only the unit tests use.

/// The proptest settings of the fuzz invariants' stable stand-ins: `cases`
/// generated inputs, and no failure files written into the source tree.
pub(crate) fn fuzz_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}
