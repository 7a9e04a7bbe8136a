//! Dominion, line protocol ("Version 1", `shared/rules/dominion-text.md`):
//! foundations only. The check catalogue (§8), the supply card names (§3.1)
//! and the grammar of every message both ways (§1, §2, §4.1) exist; there is
//! no `Game` impl yet (no session glue, server or scenarios), so this game is
//! not in `games::ALL`. The rule engine lives in `games::dominion`.

pub mod cards;
pub mod catalogue;
pub mod grammar;
