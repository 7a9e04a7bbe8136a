//! Fuzz target: `protocheck::invariants::qtp_assembly` (see its documentation for
//! the invariant checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| protocheck::invariants::qtp_assembly(data));
