//! Code the sample bots share, one module per game (each bot is an example
//! of this package: `examples/<name>.rs`, bots/README.md). Every bot of a
//! game is that game's bot with one flaw, chosen by the bot's `main`.

pub mod attack;
pub mod dominion_sexp;
pub mod dominion_text;
pub mod evolution;
pub mod kalah;
pub mod quoridor;
