//! `dsx-correct`: a conforming Dominion v1 player (rules/dominion-sexp.md
//! §1–§6).
//! Nothing is wrong with it; protocheck must report no failure and no warning.
//!
//! Money strategy: mine silver→gold or copper→silver when it holds a mine,
//! adds every treasure, then buys province (8), duchy late, gold (6), one mine
//! (5), silver (3), estates at the very end, and now and then a copper with
//! 0–2 coins; shows a seeded card of its hand at clean-up, `(clean)` when the
//! hand is empty. Every play is checked with protocheck's rule engine first.
//! `-seed <n>` makes the chance choices reproducible; `-framing
//! newline|bare|split|padded` picks a conforming wire layout (see
//! `common/mod.rs`). Exits 0 at end of input.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-correct", common::Flaw::None)
}
