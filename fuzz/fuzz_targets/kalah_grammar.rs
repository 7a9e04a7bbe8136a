//! Fuzz target: `protocheck::games::kalah::invariants::grammar` (see its documentation for
//! the invariant checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| protocheck::games::kalah::invariants::grammar(data));
