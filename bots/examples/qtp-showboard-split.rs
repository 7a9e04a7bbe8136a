//! `qtp-showboard-split`: the `showboard` diagram has an empty line in its
//! middle, and the rest of the diagram follows it; otherwise identical to
//! `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2, "Broken framing") a `showboard` whose diagram
//! is cut by an empty line: the referee (and any controller) ends the
//! response there, and the rest of the diagram becomes stray output.
//!
//! protocheck must report: `quoridor.framing.split-response` (fail), not just
//! `io.unexpected-output` (warn) for the stray lines.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-showboard-split", common::Flaw::ShowboardSplit)
}
