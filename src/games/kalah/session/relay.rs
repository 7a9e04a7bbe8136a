//! What `protocheck match` asks of a Kalah session: the bot's move in the
//! notation `opponent` takes (so the other seat's session can replay it),
//! and how the game ended for the bot.

use crate::games::kalah::rules::{Move, Position, Side};
use crate::games::{EndResult, Ending};

/// A move as `opponent:` takes it: the hole number, or `swap`.
pub(super) fn notation(mv: Move) -> String {
    match mv {
        Move::Hole(h) => h.to_string(),
        Move::Swap => "swap".into(),
    }
}

/// The result for the bot playing `bot` (its side after any swap), once
/// the game is over.
pub(super) fn ending(position: &Position, bot: Side) -> Option<Ending> {
    if !position.is_over() {
        return None;
    }
    let result = match position.winner() {
        None => EndResult::Drew,
        Some(side) if side == bot => EndResult::Won,
        Some(_) => EndResult::Lost,
    };
    let board = position.board();
    Some(Ending {
        result,
        side: bot.as_str().to_string(),
        score: [Side::South, Side::North]
            .into_iter()
            .map(|s| (s.as_str().to_string(), board.store(s) as i32))
            .collect(),
        score_counts: "store",
        position: board.state_string(),
    })
}

impl crate::games::Relay for super::KalahSession {
    fn played(&self) -> Option<String> {
        self.played.map(notation)
    }

    fn awaits_relay(&self) -> bool {
        crate::games::Session::next(self) == crate::games::Next::Opponent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Relay;
    use crate::games::Session;
    use crate::games::kalah::rules::Board;
    use crate::games::kalah::session::KalahSession;
    use crate::scenario_model::{Expect, Strategy, SwapPolicy};
    use std::time::Duration;

    fn session(side: &str) -> KalahSession {
        let mut s = KalahSession::new(7, 7, Strategy::Random, SwapPolicy::Never);
        s.send(&format!("START;{side}"))
            .expect("START is sent first");
        s
    }

    fn reply(s: &mut KalahSession, line: &str) -> Option<String> {
        let judged = s
            .judge(
                format!("{line}\n").as_bytes(),
                &Expect::LegalMove,
                Duration::ZERO,
            )
            .expect("a reply is judged");
        assert!(
            judged.violations.is_empty(),
            "{line}: {:?}",
            judged.violations
        );
        s.played()
    }

    #[test]
    fn every_hole_move_round_trips_through_the_other_seats_session() {
        let mut rng = fastrand::Rng::with_seed(1);
        for hole in 1..=7u8 {
            let mut south = session("South");
            let mut north = session("North");
            let played = reply(&mut south, &format!("MOVE;{hole}")).expect("a move was made");
            assert_eq!(played, hole.to_string());
            north
                .opponent(&played, &mut rng)
                .expect("the relayed move is legal in the other session");
            assert_eq!(south.position.board(), north.position.board());
            assert_eq!(south.position.to_move(), north.position.to_move());
        }
    }

    #[test]
    fn a_swap_round_trips_and_both_sessions_agree_on_the_sides() {
        let mut rng = fastrand::Rng::with_seed(1);
        let mut south = session("South");
        let mut north = session("North");
        let first = reply(&mut south, "MOVE;1").expect("a move");
        north.opponent(&first, &mut rng).expect("relayed");
        let swap = reply(&mut north, "SWAP").expect("the swap is a move");
        assert_eq!(swap, "swap");
        let out = south
            .opponent(&swap, &mut rng)
            .expect("the swap is relayed");
        assert!(out[0].text.starts_with("CHANGE;SWAP;"), "{:?}", out[0].text);
        assert_eq!(south.bot, Some(Side::North));
        assert_eq!(north.bot, Some(Side::South));
        assert_eq!(south.position.board(), north.position.board());
        assert_eq!(south.position.to_move(), north.position.to_move());
    }

    #[test]
    fn a_refused_reply_made_no_move() {
        let mut south = session("South");
        let judged = south
            .judge(b"MOVE;0\n", &Expect::LegalMove, Duration::ZERO)
            .expect("judged");
        assert!(!judged.violations.is_empty());
        assert_eq!(south.played(), None);
    }

    #[test]
    fn the_ending_names_the_bots_result_and_both_stores() {
        // Wire order: North's holes and store, then South's. North 5 in
        // its store, South 3: North won.
        let mut counts = vec![0u32; 16];
        counts[7] = 5;
        counts[15] = 3;
        let mut position = Position::new(7, 7);
        assert_eq!(ending(&position, Side::South), None, "not over yet");
        let board = Board::from_counts(7, &counts).expect("16 counts");
        position = Position::from_parts(board, Side::North, 20, false).expect("a swept end");
        let south = ending(&position, Side::South).expect("over");
        assert_eq!(south.result, EndResult::Lost);
        assert_eq!(
            south.score,
            vec![("South".to_string(), 3), ("North".to_string(), 5)]
        );
        assert_eq!(
            ending(&position, Side::North).expect("over").result,
            EndResult::Won
        );
    }
}
