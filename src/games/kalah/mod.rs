//! Manchester Kalah: line protocol with the pie rule; the bot is an agent.
pub mod catalogue;
pub mod grammar;
pub mod rules;
