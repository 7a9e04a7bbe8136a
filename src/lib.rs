//! protocheck: a conformance harness for game bots.
//!
//! `cli` parses the command line into the typed configurations of the
//! commands (`run`, `grade`, `matchplay`, `record`), library functions
//! that return typed errors (`fatal`). Stages of a run, each its own
//! module: `scenario` loads and validates, `suite` schedules, `controller`
//! runs one scenario against one bot over a `transport`, `games` give
//! protocol meaning, `report` renders.
pub mod actions;
pub mod build_info;
pub mod cli;
pub mod config;
pub mod controller;
pub mod coverage;
pub mod explain;
pub mod fatal;
pub mod games;
pub mod grade;
pub mod grading;
pub mod matchplay;
#[cfg(test)]
mod module_graph_tests;
pub mod outcome;
mod platform_guard;
pub mod pool;
pub mod record;
pub mod report;
pub mod run;
pub mod scenario;
pub mod scenario_model;
pub mod shared_rules;
pub mod shown;
pub mod shrink;
pub mod suggest;
pub mod suite;
#[cfg(test)]
mod testing;
pub mod transport;
#[cfg(test)]
mod typed_errors_tests;
pub mod verdict;
