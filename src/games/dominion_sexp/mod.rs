//! Dominion Protocol v1 with S-expressions (`dominion-sexp`): Matthew Flatt's
//! course protocol. Rules: `rules/dominion-sexp.md`.
//!
//! Status: the foundations only — the streaming S-expression reader
//! ([`sexp`]), the grammar of plays and notifications ([`messages`]), the rule
//! engine ([`rules`]) and the check catalogue ([`catalogue`]). There is no
//! `Game` implementation yet, so the game is not in `games::ALL` and the CLI
//! does not offer it; the dealer/session glue, scenarios and sample bots are
//! the next step.

pub mod catalogue;
pub mod messages;
pub mod rules;
pub mod sexp;
