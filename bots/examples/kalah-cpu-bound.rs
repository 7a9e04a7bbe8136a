//! `kalah-cpu-bound`: computes for 1.5 s of its own CPU time before every
//! reply (`KALAH_BOT_CPU_MS` overrides it), as a search in an interpreted
//! language would. Otherwise identical to `kalah-correct`.
//!
//! On an idle machine each reply takes about 1.5 s; on a machine busy with
//! other work it takes longer by the wall clock, through no fault of its
//! own. protocheck judges a reply by the bot's own time (the wall time less
//! the time it waited for a CPU), so with `--timeout 2s` it passes however
//! loaded the machine is (up to the wall-time backstop of 10x the timeout),
//! and with `--timeout 1s` it fails `io.timeout`.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::CpuBound)
}
