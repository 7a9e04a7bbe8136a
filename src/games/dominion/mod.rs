//! What both Dominion games share: the one card model ([`cards`]), the end
//! of the game and its winners ([`ending`], each protocol's differences as
//! parameters), the supply ([`supply`], each protocol's piles and their
//! order as a parameter), the one rule engine ([`engine`]: the table, the
//! deal, draws, the end of every turn, scores), the line protocol's plays
//! on it ([`kingdom`], `rules/dominion-text.md` §3), the table they seat
//! ([`table`]), its seats at a match table ([`seats`]) and its picture for
//! the HTML report ([`picture`]). Protocol
//! specifics (S-expression atoms and version 1's plays, the line grammar)
//! live in `dominion_sexp` and `dominion_text`.

pub mod cards;
pub mod coverage;
pub mod ending;
pub mod engine;
pub mod kingdom;
pub mod picture;
pub mod seats;
pub mod supply;
pub mod table;

pub use cards::{Card, HAND_SIZE, STARTING_DECK, Shuffler};
pub use ending::{DEFAULT_TURN_CAP, EndRules, Ending};
pub use engine::{DominionTable, SeatedPlayer, TableRules};
pub use supply::Supply;
