//! Fuzz target: `protocheck::suite::invariants::scenario_loader` (see its documentation for
//! the invariant checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| protocheck::suite::invariants::scenario_loader(data));
