//! Quoridor Text Protocol: protocheck is the controller, the bot an engine.
pub mod catalogue;
pub mod notation;
pub mod rules;
