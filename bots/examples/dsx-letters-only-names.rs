//! `dsx-letters-only-names`: takes the document's "a name is a sequence of
//! letters"
//! literally: a state whose player names hold other characters (the
//! reference's `0-player-v1`) is refused (logged on stderr, no reply).
//! protocheck's names are letters only, so it plays every normal game.
//!
//! Mimics: a strict parser of the document's grammar (D8).
//!
//! protocheck must report: `dominion-sexp.robust.reference-names`, only in
//! the robustness scenario with reference-style names; passes generated
//! games (a warning: fails only under `--strict`).
//! Otherwise identical to `dsx-correct`.

use protocheck_sample_bots::dominion_sexp as common;

fn main() {
    common::run("dsx-letters-only-names", common::Flaw::LettersOnlyNames)
}
