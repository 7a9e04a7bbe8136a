//! Evolution (NU CS 4500, Spring 2016, remote protocol 1.3): protocheck plays
//! the dealer, the bot is a TCP client (rules digest `shared/rules/evolution.md`).
//!
//! Status: foundations only. This module holds the data definitions and
//! messages ([`model`], [`messages`]), the pure rule engine ([`engine`]:
//! boards, deck, the four steps of a turn, the feeding cycle, attacks,
//! extinction, scoring, end of game), Action4 and FeedingChoice parsing and
//! legality in the reference's order ([`action4`], [`feeding`]), the
//! reference strategy for built-in opponents ([`strategy`]) and the check
//! catalogue ([`catalogue`]). There is no `Game` implementation yet (no
//! session glue, scenarios or sample clients), so the game is deliberately
//! **not** listed in `games::ALL`; the JSON stream reader it will use is
//! `transport::json_stream`.

pub mod action4;
pub mod catalogue;
pub mod engine;
pub mod feeding;
pub mod messages;
pub mod model;
pub mod strategy;
