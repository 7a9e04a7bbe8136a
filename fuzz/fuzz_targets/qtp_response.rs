//! Fuzz target: `protocheck::games::quoridor::invariants::response` (see its documentation for
//! the invariant checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| protocheck::games::quoridor::invariants::response(data));
