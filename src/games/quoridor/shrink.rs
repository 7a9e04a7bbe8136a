//! How a failing generated QTP game is shrunk (docs/shrinking.md): the
//! choices are protocheck's own colour's actions, each sent as the
//! `playmove`/`playwall` command the referee would send; where protocheck
//! has no choice (the engine's `genmove`, `winner` and `quit` at the end) it
//! sends what generated play sends. The frames are the engine's two colours.

use crate::games::Session;
use crate::scenario_model::{Scenario, Step, Token};
use crate::games::Shrinkable;

pub struct QtpShrink;

pub static QTP_SHRINK: QtpShrink = QtpShrink;

const COLOURS: [&str; 2] = ["black", "white"];

impl Shrinkable for QtpShrink {
    fn frames(&self, _scenario: &Scenario) -> usize {
        COLOURS.len()
    }

    /// Frame 0 is the engine's colour as generated, frame 1 the other.
    fn framed(&self, scenario: &Scenario, frame: usize) -> Scenario {
        let mut framed = scenario.clone();
        framed.steps.retain(|(s, _)| !matches!(s, Step::Play(_)));
        if frame == 1 {
            let own: super::QuoridorOptions = scenario.options.of_game().unwrap_or_default();
            let colour = own.colour.as_deref().unwrap_or(COLOURS[0]);
            let other = if colour == COLOURS[0] {
                COLOURS[1]
            } else {
                COLOURS[0]
            };
            framed.options = framed.options.with("colour", other);
        }
        framed
    }

    fn choices(&self, replay: &[Step]) -> Vec<String> {
        replay
            .iter()
            .filter_map(|s| match s {
                Step::Send(t) if t.starts_with("playmove ") || t.starts_with("playwall ") => {
                    Some(t.clone())
                }
                _ => None,
            })
            .collect()
    }

    fn legal(&self, session: &dyn Session) -> Vec<String> {
        session.own_moves()
    }

    fn step(&self, choice: &str) -> Step {
        Step::Send(choice.to_string())
    }

    fn forced(&self) -> Option<Step> {
        Some(Step::Opponent(Token("auto".into())))
    }

    /// Plies: protocheck's moves and the engine's `genmove`s (every
    /// command has a response, so replies are not moves here).
    fn moves(&self, replay: &[Step]) -> usize {
        replay
            .iter()
            .filter(|s| {
                matches!(s, Step::Send(t) if ["genmove ", "playmove ", "playwall "]
                    .iter()
                    .any(|c| t.starts_with(c)))
            })
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::scenario_model::Options;

    #[test]
    fn the_frames_are_the_two_colours_and_the_choices_protocheck_s_moves() {
        let game = &super::super::QUORIDOR.generate(1, 5, &Options::default())[0];
        let colour = |s: &Scenario| {
            let own: super::super::QuoridorOptions = s.options.of_game().unwrap();
            own.colour
        };
        assert_eq!(colour(&QTP_SHRINK.framed(game, 0)).as_deref(), Some("black"));
        assert_eq!(colour(&QTP_SHRINK.framed(game, 1)).as_deref(), Some("white"));
        assert!(
            !QTP_SHRINK
                .framed(game, 1)
                .steps
                .iter()
                .any(|(s, _)| matches!(s, Step::Play(_)))
        );
        assert!(super::super::QUORIDOR.session(&QTP_SHRINK.framed(game, 1).options).is_ok());
        assert_eq!(
            QTP_SHRINK.choices(&[
                Step::Send("genmove black".into()),
                Step::Send("playmove white c4".into()),
                Step::Send("playwall white c3h".into()),
            ]),
            ["playmove white c4", "playwall white c3h"]
        );
    }
}
