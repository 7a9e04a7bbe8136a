//! `qtp-algebraic-walls`: names walls the algebraic way, by the south-west
//! cell of the wall's 2×2 block, so the row of every `playwall` vertex and of
//! every `genmove` wall is one lower than in QTP (`A1 h` here is QTP `A2 h`);
//! otherwise identical to `qtp-correct`.
//!
//! Mimics (quoridor.md §9.2 risks, §3.7) "Walls named with the algebraic
//! south-west convention": it rejects `A9 h` and accepts `A1 h` on 9×9.
//!
//! protocheck must report: `quoridor.playwall.accepts-legal` (fail, e.g.
//! `A9 h` refused) and `quoridor.playwall.anchor` (fail, e.g. `E1 h`
//! accepted); wall probes near other walls also give
//! `quoridor.playwall.overlap`, and a `genmove` wall on row 1 gives
//! `quoridor.genmove.illegal`.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-algebraic-walls", common::Flaw::AlgebraicWalls)
}
