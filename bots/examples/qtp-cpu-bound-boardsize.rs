//! `qtp-cpu-bound-boardsize`: computes for 1.5 s of its own CPU time before
//! answering each `boardsize` (`QTP_BOT_CPU_MS` overrides it), as an engine
//! that builds its tables there would. Otherwise identical to `qtp-correct`:
//! not a flaw.
//!
//! On an idle machine the answer takes about 1.5 s, within the referee's
//! 2 s; on a busy machine it takes longer by the wall clock, through no
//! fault of its own. protocheck judges `quoridor.time.ack` by the bot's own
//! time (the wall time less the time it waited for a CPU), as `io.timeout`,
//! so it reports nothing however loaded the machine is.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-cpu-bound-boardsize", common::Flaw::CpuBoundBoardsize)
}
