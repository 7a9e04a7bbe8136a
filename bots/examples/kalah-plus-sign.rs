//! `kalah-plus-sign`: writes hole numbers with a plus sign (`MOVE;+3`).
//! Otherwise identical to `kalah-correct`.
//!
//! Mimics an agent formatting with `%+d` / `{:+}`; the reference's Java
//! integer parser accepts it (kalah.md §2.1, §7 item 1).
//!
//! protocheck must report: `kalah.move.number-format` (warn) on every move;
//! the game otherwise continues normally.

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::PlusSign)
}
