//! How a failing generated dominion-text game is shrunk
//! (docs/shrinking.md): the choices are the built-in seats' plays, one
//! `opponent: <play>` step each (`buy silver`, `action militia`, `pass`);
//! where protocheck has no choice (the handshake, the bot's turn start,
//! militia's requests) it sends `opponent: auto`. The frames are the table's
//! seats for the bot, each with the game's own deal and with
//! [`DEALS`]` - 1` others (the scenario's seed varied).

use crate::games::Session;
use crate::games::dominion::table::TableOptions;
use crate::scenario_model::{Scenario, Step, Token};
use crate::games::Shrinkable;

pub struct DominionTextShrink;

pub static DOMINION_TEXT_SHRINK: DominionTextShrink = DominionTextShrink;

/// Deals tried per seat: the game's own and this many less one others.
pub const DEALS: usize = 3;

/// The frames of a Dominion table (both Dominion games): each seat of the
/// table with each of [`DEALS`] deals.
pub fn table_frames(scenario: &Scenario) -> usize {
    let own: TableOptions = scenario.options.of_game().unwrap_or_default();
    own.players.unwrap_or(2).clamp(1, 4) as usize * DEALS
}

/// `scenario` in `frame` at a Dominion table: frame 0 is its own seat and
/// deal; the seat moves on by `frame % players`, the deal changes with
/// `frame / players`. The steps keep its opening (none: `play: to-end` is
/// dropped).
pub fn table_framed(scenario: &Scenario, frame: usize) -> Scenario {
    let mut framed = scenario.clone();
    framed.steps.retain(|(s, _)| !matches!(s, Step::Play(_)));
    let own: TableOptions = scenario.options.of_game().unwrap_or_default();
    let players = own.players.unwrap_or(2).clamp(1, 4) as usize;
    let seat = own.seat.unwrap_or(1) as usize;
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

/// The built-in plays in the `opponent:` steps of a Dominion replay, one
/// per play (`auto` and `others` hold none).
pub fn table_choices(replay: &[Step]) -> Vec<String> {
    replay
        .iter()
        .filter_map(|s| match s {
            Step::Opponent(Token(t)) => Some(t),
            _ => None,
        })
        .flat_map(|t| t.split(';'))
        .map(str::trim)
        .filter(|c| !c.is_empty() && *c != "auto" && *c != "others")
        .map(str::to_string)
        .collect()
}

impl Shrinkable for DominionTextShrink {
    fn frames(&self, scenario: &Scenario) -> usize {
        table_frames(scenario)
    }

    fn framed(&self, scenario: &Scenario, frame: usize) -> Scenario {
        table_framed(scenario, frame)
    }

    fn choices(&self, replay: &[Step]) -> Vec<String> {
        table_choices(replay)
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
    fn the_frames_are_each_seat_with_three_deals() {
        let game = &super::super::DOMINION_TEXT.generate(4, 1, &Options::default())[3];
        let own = |s: &Scenario| {
            let t: TableOptions = s.options.of_game().unwrap();
            (t.players, t.seat, s.options.seed)
        };
        // Game 4 is the 3-player table, the bot in seat 2.
        assert_eq!(own(game).0, Some(3));
        assert_eq!(own(game).1, Some(2));
        assert_eq!(DOMINION_TEXT_SHRINK.frames(game), 9);
        let seed = game.options.seed;
        assert_eq!(own(&DOMINION_TEXT_SHRINK.framed(game, 0)), own(game));
        assert_eq!(
            own(&DOMINION_TEXT_SHRINK.framed(game, 2)),
            (Some(3), Some(1), seed)
        );
        let other_deal = own(&DOMINION_TEXT_SHRINK.framed(game, 3));
        assert_eq!((other_deal.0, other_deal.1), (Some(3), Some(2)));
        assert_ne!(other_deal.2, seed);
        assert!(DOMINION_TEXT_SHRINK.framed(game, 0).steps.is_empty());
    }

    #[test]
    fn the_choices_are_the_built_in_plays_and_each_is_legal_where_it_is_offered() {
        assert_eq!(
            DOMINION_TEXT_SHRINK.choices(&[
                Step::Opponent(Token("auto".into())),
                Step::Opponent(Token("action militia; buy silver; auto".into())),
                Step::Opponent(Token("pass".into())),
            ]),
            ["action militia", "buy silver", "pass"]
        );
        let game = &super::super::DOMINION_TEXT.generate(2, 1, &Options::default())[1];
        // The bot in seat 2 of 2: seat 1, built in, opens after the handshake.
        let ready = || {
            let mut session = super::super::DOMINION_TEXT.session(&game.options).unwrap();
            let mut rng = fastrand::Rng::with_seed(1);
            assert!(DOMINION_TEXT_SHRINK.legal(session.as_ref()).is_empty());
            session.opponent("auto", &mut rng).unwrap();
            for reply in ["player player2 bot\n", "player player2 version 1\n"] {
                session
                    .judge(
                        reply.as_bytes(),
                        &crate::scenario_model::Expect::LegalMove,
                        std::time::Duration::ZERO,
                    )
                    .unwrap();
            }
            (session, rng)
        };
        let legal = DOMINION_TEXT_SHRINK.legal(ready().0.as_ref());
        assert!(legal.contains(&"pass".to_string()), "{legal:?}");
        assert!(legal.iter().any(|m| m.starts_with("buy ")), "{legal:?}");
        for play in &legal {
            let (mut session, mut rng) = ready();
            assert!(session.opponent(play, &mut rng).is_ok(), "{play}");
            assert_eq!(session.last_opponent_step(), Some(DOMINION_TEXT_SHRINK.step(play)));
        }
    }
}
