//! How a failing generated Evolution game is shrunk (docs/shrinking.md):
//! the built-in players choose without chance and a scenario cannot script
//! them, so protocheck's only choices are the table's: the bot's seat and
//! the deal. The frames are each seat with [`DEALS`] deals (the scenario's
//! seed varied); every message of protocheck's is `opponent: auto`.

use crate::games::Session;
use crate::scenario_model::{Scenario, Step, Token};
use crate::games::Shrinkable;

pub struct EvolutionShrink;

pub static EVOLUTION_SHRINK: EvolutionShrink = EvolutionShrink;

/// Deals tried per seat: the game's own and this many less one others.
pub const DEALS: usize = 8;

fn table(scenario: &Scenario) -> (usize, usize) {
    let own: super::EvolutionOptions = scenario.options.of_game().unwrap_or_default();
    let players = own.players.unwrap_or(3).clamp(1, 8) as usize;
    let seat = (own.seat.unwrap_or(1) as usize).clamp(1, players);
    (players, seat)
}

impl Shrinkable for EvolutionShrink {
    fn frames(&self, scenario: &Scenario) -> usize {
        table(scenario).0 * DEALS
    }

    /// Frame 0 is the game's own seat and seed (its own deal unless the
    /// game was aimed: shrinking plays without aims); the seat moves on by
    /// `frame % players`, the deal changes with `frame / players`.
    fn framed(&self, scenario: &Scenario, frame: usize) -> Scenario {
        let mut framed = scenario.clone();
        framed.steps.retain(|(s, _)| !matches!(s, Step::Play(_)));
        let (players, seat) = table(scenario);
        let (turn, deal) = (frame % players, frame / players);
        if turn != 0 {
            framed.options = framed
                .options
                .with("seat", (seat - 1 + turn) % players + 1);
        }
        if deal != 0 {
            let seed = framed.options.seed.unwrap_or(0);
            // Another deal, the same one for the same frame every time.
            framed.options.seed = Some(seed ^ (deal as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
        framed
    }

    /// None: the built-in players' moves are not scripted.
    fn choices(&self, _replay: &[Step]) -> Vec<String> {
        Vec::new()
    }

    fn legal(&self, _session: &dyn Session) -> Vec<String> {
        Vec::new()
    }

    fn step(&self, choice: &str) -> Step {
        Step::Opponent(Token(choice.to_string()))
    }

    fn forced(&self) -> Option<Step> {
        Some(Step::Opponent(Token("auto".into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::scenario_model::Options;

    #[test]
    fn the_frames_are_each_seat_with_eight_deals() {
        // Game 2: 4 players, the bot in seat 2.
        let game = &super::super::EVOLUTION.generate(2, 1, &Options::default())[1];
        assert_eq!(table(game), (4, 2));
        assert_eq!(EVOLUTION_SHRINK.frames(game), 32);
        let seed = game.options.seed;
        let at = |frame| {
            let s = EVOLUTION_SHRINK.framed(game, frame);
            (table(&s), s.options.seed)
        };
        assert_eq!(at(0), ((4, 2), seed));
        assert_eq!(at(3), ((4, 1), seed));
        assert_eq!(at(4).0, (4, 2));
        assert_ne!(at(4).1, seed);
        let opening = EVOLUTION_SHRINK.framed(game, 5).steps;
        assert_eq!(opening.len(), 1, "the sign-up only: {opening:?}");
        assert!(super::super::EVOLUTION.session(&EVOLUTION_SHRINK.framed(game, 5).options).is_ok());
    }
}
