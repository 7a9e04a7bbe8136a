//! Fuzz target: `protocheck::invariants::kalah_grammar` (see its documentation for
//! the invariant checked).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| protocheck::invariants::kalah_grammar(data));
