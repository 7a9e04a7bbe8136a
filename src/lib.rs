//! protocheck: a conformance harness for game bots.
pub mod games;
pub mod verdict;
