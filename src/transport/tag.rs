//! The tags that name this run and each of its bots (`PROTOCHECK_BOT=<run>.<n>`
//! in every bot's environment): the guard attributes escaped processes by
//! them, the guardian kills by them, the sandbox names the run's folder of
//! private temporary folders by the run's, and the environment keeps the
//! bot's own tag out of what a bot may set. Below all of them.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that tags every bot process.
pub const TAG_VAR: &str = "PROTOCHECK_BOT";

/// This run's tag: unique per protocheck process.
pub fn run_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| format!("{}-{:08x}", std::process::id(), fastrand::u32(..)))
}

/// A fresh tag for the next bot.
pub fn next_bot_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{}.{}", run_tag(), NEXT.fetch_add(1, Ordering::Relaxed))
}
