//! What `protocheck match` asks of a QTP session: the other engine's
//! `genmove` answer, relayed as `playmove`/`playwall` for the colour to move
//! (as the referee tells the other engine, quoridor.md §4), whether the next
//! command waits for that move, and how the game ended for this engine.

use super::QtpSession;
use crate::games::quoridor::notation;
use crate::games::quoridor::rules::{Action, Colour};
use crate::games::{EndResult, Ending, Next, ScriptError, Session};

impl QtpSession {
    /// The command that tells this engine the other engine's move, given as
    /// a `genmove` answer reads (`E2`, `E2 h`); an error for anything else.
    pub(super) fn relayed(&self, choice: &str) -> Result<String, ScriptError> {
        let action = notation::parse_vertex(choice)
            .filter(|_| !choice.contains(char::is_whitespace))
            .map(Action::Step)
            .or_else(|| notation::parse_wall(choice).map(Action::Place))
            .ok_or_else(|| {
                format!(
                    "`opponent: {choice}`: Quoridor takes `auto` (the next generated step), `move` (protocheck plays the colour to move), `repeat-genmove`, or a move as a genmove answer writes it (`E2`, `E2 h`)"
                )
            })?;
        let colour = self.turn();
        if colour == self.bot_colour {
            return Err(format!(
                "`opponent: {choice}`: it is the engine's turn ({colour}), not the opponent's"
            ).into());
        }
        Ok(notation::action_command(colour, action).to_string())
    }

    /// The colour to move is the other engine's, in a game not yet won: the
    /// next command is its move, relayed.
    pub(super) fn relay_due(&self) -> bool {
        self.next() == Next::Opponent
            && !self.winner_asked
            && self
                .board()
                .is_ok_and(|b| b.winner().is_none() && self.turn() != self.bot_colour)
    }

    /// The result for this engine once a colour has reached its goal row.
    pub(super) fn ended(&self) -> Option<Ending> {
        let board = self.board().ok()?;
        let winner = board.winner()?;
        let colours = [Colour::Black, Colour::White];
        Some(Ending {
            result: if winner == self.bot_colour {
                EndResult::Won
            } else {
                EndResult::Lost
            },
            side: self.bot_colour.as_str().to_string(),
            score: colours
                .iter()
                .map(|&c| (c.as_str().to_string(), i32::from(board.walls_left(c))))
                .collect(),
            score_counts: "walls left",
            position: colours
                .iter()
                .map(|&c| format!("{c} {}", board.pawn(c)))
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

impl crate::games::Relay for QtpSession {
    fn played(&self) -> Option<String> {
        self.played.map(|(_, action)| action.to_string())
    }

    fn awaits_relay(&self) -> bool {
        self.relay_due()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Relay;
    use crate::scenario_model::{Expect, Strategy};
    use std::time::Duration;

    /// A session for `colour` with the referee's set-up answered.
    fn engine(colour: Colour) -> QtpSession {
        let mut s = QtpSession::new(colour, Strategy::Greedy);
        for line in ["boardsize 9", "clear_board", "walls 10"] {
            s.send(line).expect("set-up is accepted");
            answer(&mut s, "=");
        }
        s
    }

    fn answer(s: &mut QtpSession, text: &str) -> Option<String> {
        let judged = s
            .judge(
                format!("{text}\n\n").as_bytes(),
                &Expect::LegalMove,
                Duration::ZERO,
            )
            .expect("judged");
        assert!(
            judged.violations.is_empty(),
            "{text}: {:?}",
            judged.violations
        );
        s.played()
    }

    /// Black's engine plays `answer` for black; the move is relayed to
    /// white's session, which must send exactly `command`.
    fn relay(answer_text: &str, command: &str) {
        let mut rng = fastrand::Rng::with_seed(1);
        let mut black = engine(Colour::Black);
        let mut white = engine(Colour::White);
        assert!(
            !black.awaits_relay(),
            "black moves first: its genmove is due"
        );
        assert!(white.awaits_relay(), "white waits for black's move");
        let out = black.opponent("auto", &mut rng).expect("genmove");
        assert_eq!(out[0].text, "genmove black");
        let played = answer(&mut black, &format!("= {answer_text}")).expect("a move");
        assert_eq!(played, answer_text);
        let out = white.opponent(&played, &mut rng).expect("relayed");
        assert_eq!(out[0].text, command);
        answer(&mut white, "=");
        assert_eq!(white.played(), None, "an acknowledgement is no move");
        assert_eq!(
            black.board().unwrap().history(),
            white.board().unwrap().history()
        );
        assert!(black.awaits_relay(), "black now waits for white");
        assert!(!white.awaits_relay(), "white's genmove is due");
    }

    #[test]
    fn a_pawn_move_round_trips_as_playmove() {
        relay("E8", "playmove black E8");
    }

    #[test]
    fn walls_of_both_orientations_round_trip_as_playwall() {
        relay("E5 h", "playwall black E5 horizontal");
        relay("C3 v", "playwall black C3 vertical");
    }

    #[test]
    fn the_engines_own_turn_and_words_that_are_no_move_are_refused() {
        let mut rng = fastrand::Rng::with_seed(1);
        let mut black = engine(Colour::Black);
        let err = black.opponent("E8", &mut rng).unwrap_err();
        assert!(err.contains("engine's turn"), "{err}");
        let err = black.opponent("sideways", &mut rng).unwrap_err();
        assert!(err.contains("genmove answer"), "{err}");
    }
}
