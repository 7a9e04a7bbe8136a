//! How a failing generated Kalah game is shrunk (docs/shrinking.md): the
//! choices are the opponent's moves (a hole, or `swap`), each made with an
//! `opponent:` step; the frames are the bot's two sides.

use crate::games::Session;
use crate::scenario_model::{Scenario, Step, Token};
use crate::games::Shrinkable;

pub struct KalahShrink;

pub static KALAH_SHRINK: KalahShrink = KalahShrink;

const SIDES: [&str; 2] = ["START;South", "START;North"];

impl Shrinkable for KalahShrink {
    fn frames(&self, _scenario: &Scenario) -> usize {
        SIDES.len()
    }

    /// Frame 0 is the side the game was generated with, frame 1 the other.
    fn framed(&self, scenario: &Scenario, frame: usize) -> Scenario {
        let mut framed = scenario.clone();
        framed.steps.retain(|(s, _)| !matches!(s, Step::Play(_)));
        if frame == 1 {
            for (step, _) in &mut framed.steps {
                if let Step::Send(text) = step
                    && let Some(at) = SIDES.iter().position(|s| s == text)
                {
                    *text = SIDES[1 - at].to_string();
                }
            }
        }
        framed
    }

    fn choices(&self, replay: &[Step]) -> Vec<String> {
        replay
            .iter()
            .filter_map(|s| match s {
                Step::Opponent(Token(t)) => Some(t.clone()),
                _ => None,
            })
            .collect()
    }

    fn legal(&self, session: &dyn Session) -> Vec<String> {
        session.own_moves()
    }

    fn step(&self, choice: &str) -> Step {
        Step::Opponent(Token(choice.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::scenario_model::Options;

    #[test]
    fn the_legal_choices_are_the_opponents_moves_when_it_is_to_move() {
        let mut session = super::super::KALAH.session(&Options::default()).unwrap();
        session.send("START;North").unwrap();
        // The bot is North: the opponent (South) opens.
        assert_eq!(
            KALAH_SHRINK.legal(session.as_ref()),
            ["1", "2", "3", "4", "5", "6", "7"]
        );
        session.opponent("1", &mut fastrand::Rng::with_seed(1)).unwrap();
        // The opening earns no extra turn (pie rule): the bot is to move,
        // protocheck has no choice to make.
        assert!(KALAH_SHRINK.legal(session.as_ref()).is_empty());
    }

    #[test]
    fn the_other_frame_is_the_other_side() {
        let game = super::super::KALAH.generate(1, 5, &Options::default());
        let framed = KALAH_SHRINK.framed(&game[0], 1);
        let steps: Vec<&Step> = framed.steps.iter().map(|(s, _)| s).collect();
        assert_eq!(steps, [&Step::Send("START;North".into())]);
        let own = KALAH_SHRINK.framed(&game[0], 0);
        assert_eq!(own.steps.len(), 1);
        assert_eq!(own.steps[0].0, Step::Send("START;South".into()));
    }
}
