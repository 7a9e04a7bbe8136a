//! The unit tests of the board simulation that `kalah-seven-seeds` runs on
//! its own (bots/src/kalah/simulate.rs). They live here rather than in
//! the example: an example built with `test = true` is built only as a test
//! harness by `cargo test`, and the sample bot itself would be missing.

#[allow(dead_code)]
#[path = "../../bots/src/kalah/simulate.rs"]
mod simulate;
