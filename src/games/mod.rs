//! One folder per game. The controller and reporters know nothing game-specific.
pub mod kalah;
pub mod quoridor;
