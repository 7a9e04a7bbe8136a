//! How a failing generated dominion-sexp game is shrunk
//! (docs/shrinking.md): the choices are the built-in seats' plays, one
//! `opponent: (buy silver)` step each; at the bot's turn protocheck sends
//! `opponent: auto` (its `(move …)`), which holds no choice. The frames are
//! those of dominion-text's table: each seat with three deals.

use crate::games::Session;
use crate::games::dominion_text::shrink::{table_frames, table_framed};
use crate::scenario_model::{Scenario, Step, Token};
use crate::games::Shrinkable;

pub struct DominionSexpShrink;

pub static DOMINION_SEXP_SHRINK: DominionSexpShrink = DominionSexpShrink;

/// The plays of one `opponent:` step (`(add copper) (buy silver)`), each
/// as written; `auto` holds none.
fn plays(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0
                    && let Some(s) = start.take()
                {
                    out.push(text[s..=i].to_string());
                }
            }
            _ => {}
        }
    }
    out
}

impl Shrinkable for DominionSexpShrink {
    fn frames(&self, scenario: &Scenario) -> usize {
        table_frames(scenario)
    }

    fn framed(&self, scenario: &Scenario, frame: usize) -> Scenario {
        table_framed(scenario, frame)
    }

    fn choices(&self, replay: &[Step]) -> Vec<String> {
        replay
            .iter()
            .filter_map(|s| match s {
                Step::Opponent(Token(t)) => Some(plays(t)),
                _ => None,
            })
            .flatten()
            .collect()
    }

    fn legal(&self, session: &dyn Session) -> Vec<String> {
        session.own_moves()
    }

    fn step(&self, choice: &str) -> Step {
        Step::Opponent(Token(choice.to_string()))
    }

    fn forced(&self) -> Option<Step> {
        Some(Step::Opponent(Token("auto".into())))
    }

    fn one_pause_per_stretch(&self) -> bool {
        true
    }

    fn replace_first(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::scenario_model::Options;

    #[test]
    fn the_choices_are_the_built_in_plays_and_each_is_legal_where_it_is_offered() {
        assert_eq!(
            DOMINION_SEXP_SHRINK.choices(&[
                Step::Opponent(Token("auto".into())),
                Step::Opponent(Token("(add copper) (act mine copper silver) (clean)".into())),
            ]),
            ["(add copper)", "(act mine copper silver)", "(clean)"]
        );
        // The bot in seat 2 of 2: seat 1, built in, opens.
        let game = &super::super::DOMINION_SEXP.generate(2, 1, &Options::default())[1];
        let fresh = || super::super::DOMINION_SEXP.session(&game.options).unwrap();
        let legal = DOMINION_SEXP_SHRINK.legal(fresh().as_ref());
        assert!(legal.contains(&"(add copper)".to_string()), "{legal:?}");
        for play in &legal {
            let mut session = fresh();
            let mut rng = fastrand::Rng::with_seed(1);
            assert!(session.opponent(play, &mut rng).is_ok(), "{play}");
            assert_eq!(
                session.last_opponent_step(),
                Some(DOMINION_SEXP_SHRINK.step(play))
            );
        }
        // At the bot's turn protocheck has no choice.
        let mut session = fresh();
        session
            .opponent("auto", &mut fastrand::Rng::with_seed(1))
            .unwrap();
        assert!(DOMINION_SEXP_SHRINK.legal(session.as_ref()).is_empty());
    }
}
