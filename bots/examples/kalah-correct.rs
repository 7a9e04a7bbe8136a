//! `kalah-correct`: a fully conforming Kalah bot (the reference sample).
//!
//! It reads the board from every `CHANGE` state string, so it works for any
//! number of holes. Policy: the rightmost hole whose last seed lands in its own
//! store, otherwise a pseudo-random non-empty hole. As South it always opens
//! with hole 1 (n is unknown before the first `CHANGE`). As North it swaps on
//! its first move when South opened with hole 1.
//!
//! Environment: `KALAH_BOT_SEED` (xorshift seed, default fixed),
//! `KALAH_BOT_SWAP` (`always` / `never`; default: swap after opening 1).
//!
//! protocheck must report: nothing (pass).

use protocheck_sample_bots::kalah as common;

fn main() {
    common::run(common::Flaw::None)
}
