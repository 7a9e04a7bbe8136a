//! What a game tells the shrinker (`crate::shrink`): its choices and how
//! one is made in the tracked game. Here, below the shrinker, so that a
//! game's `shrink.rs` implements it without reaching up (`Game::shrinker`).

use super::Session;
use crate::scenario_model::{Expect, Scenario, Step};

/// What a game tells the shrinker. protocheck's choices are written as the
/// game's notation for them (Kalah: a hole number or `swap`).
pub trait Shrinkable: Sync {
    /// How many frames a generated scenario may be played in (seat, deal);
    /// frame 0 is the scenario's own.
    fn frames(&self, scenario: &Scenario) -> usize;
    /// `scenario` in `frame`: its options, and as its steps the opening
    /// protocheck sends before its first choice (no `play: to-end`).
    fn framed(&self, scenario: &Scenario, frame: usize) -> Scenario;
    /// protocheck's choices in a run's replay steps, in order.
    fn choices(&self, replay: &[Step]) -> Vec<String>;
    /// The choices protocheck may make now in the tracked game (empty:
    /// none; the game is over or it is not protocheck's turn).
    fn legal(&self, session: &dyn Session) -> Vec<String>;
    /// The step that makes `choice` (one of [`Shrinkable::legal`]).
    fn step(&self, choice: &str) -> Step;
    /// What protocheck sends where it has no choice but the game goes on
    /// (QTP: `opponent: auto`, the engine's `genmove`, then `winner` and
    /// `quit`). `None`: the game stops there.
    fn forced(&self) -> Option<Step> {
        None
    }
    /// Whether protocheck's moves in a row (no reply of the bot's between
    /// them) share one pause before the first, as generated play makes them
    /// in one `opponent: auto` step (Dominion: the built-in seats' plays
    /// between two requests to the bot). By default each move gets its own
    /// pause, as each is its own step in generated play.
    fn one_pause_per_stretch(&self) -> bool {
        false
    }
    /// Whether the search replaces choices before it deletes runs of them:
    /// where a game is long because of what protocheck chose early, not
    /// because it chose much (Dominion: a deleted play leaves the later
    /// ones at turns with other hands). By default deleting comes first.
    fn replace_first(&self) -> bool {
        false
    }
    /// Moves in a game as its replay steps show it, up to the failure:
    /// by default protocheck's choices and the bot's replies.
    fn moves(&self, replay: &[Step]) -> usize {
        self.choices(replay).len() + bot_replies(replay)
    }
}

/// The bot's replies in a run's replay steps.
pub fn bot_replies(replay: &[Step]) -> usize {
    replay
        .iter()
        .filter(|s| matches!(s, Step::Expect(Expect::LegalMove)))
        .count()
}
