//! What both Dominion games share: the one card model ([`cards`]), the end
//! of the game and its winners ([`ending`], each protocol's differences as
//! parameters), the supply ([`supply`], each protocol's piles and their
//! order as a parameter), the rule engine of the line protocol's ten-card kingdom ([`kingdom`],
//! `rules/dominion-text.md` §3), the table they seat ([`table`]) and its picture for the HTML report ([`picture`]). Protocol specifics (S-expression atoms,
//! line grammar) live in `dominion_sexp` and `dominion_text`.

pub mod cards;
pub mod ending;
pub mod engine;
pub mod kingdom;
pub mod picture;
pub mod supply;
pub mod table;

pub use cards::{Card, HAND_SIZE, STARTING_DECK, Shuffler};
pub use ending::{DEFAULT_TURN_CAP, EndRules, Ending};
pub use engine::{DominionTable, SeatedPlayer, TableRules};
pub use supply::Supply;
