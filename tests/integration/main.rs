//! The integration tests, one module per file, in one test binary: one link
//! instead of one per file, and libtest runs the tests of different files
//! side by side (most of them wait on bots, not on a CPU). A test that
//! keeps the CPUs busy on purpose (CPU hogs) goes to `tests/load/` instead,
//! where no other test runs beside its hogs.
//!
//! A test that runs protocheck's launcher in its own process
//! (`BotConnection`: a subreaper that sweeps its descendants, which would
//! take other tests' children for a bot's leftovers) stays a binary of its
//! own, as `tests/sandbox_layers.rs` does; so does
//! `tests/dominion_sexp_alloc.rs` (a process-wide counting allocator).
//!
//! A new test file goes here as `tests/integration/<name>.rs` with a line
//! `mod <name>;` below (and `use crate::common;` for the shared helpers).

#[path = "../common/mod.rs"]
mod common;

mod bot_environment;
mod bot_simulation;
mod cli;
mod coverage;
mod dominion_sexp_cli;
mod dominion_sexp_oracle;
mod dominion_text_cli;
mod dominion_text_suite;
mod evolution_cli;
mod evolution_fixtures;
mod evolution_games;
mod evolution_suite;
mod explain_cli;
mod first_hour;
mod flushing;
mod grade;
mod grade_compare;
mod grading;
mod grouped_findings;
mod hardening;
mod hostile;
mod html_marks;
mod html_report;
mod idle_runtimes;
mod init_workflow;
mod interrupt;
mod kalah_bots;
mod kalah_end;
mod kalah_oracle;
mod kalah_skip_snapshots;
mod limit_options;
mod match_dominion;
mod match_evolution;
mod match_kalah;
mod match_quoridor;
mod match_reports;
mod own_expectations;
mod platform_init;
mod platforms;
mod probe_attribution;
mod progress_tmux;
mod project_file;
mod quoridor_engines;
mod quoridor_oracle;
mod record_generic;
mod record_tmux;
mod record_transcript;
mod reference_dominion_sexp;
mod reference_evolution;
mod reference_kalah;
mod reference_match;
mod reference_match_quoridor;
mod reference_quoridor;
mod report_schema;
mod reports;
mod rerun_failed;
mod sandbox_attacks;
mod sandbox_refusal;
mod sandbox_reports;
mod sandbox_runtimes;
mod scenario_hardening;
mod shrinking;
mod shrinking_matches;
mod snapshots;
mod tcp_strangers;
mod tournament;
mod transport;
