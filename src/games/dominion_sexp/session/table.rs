//! The session of one bot at a match table (docs/match.md): the same
//! dealer and rules as a single run, with the seats of the other real bots
//! relayed. Each of their plays reaches this session through `opponent` as
//! the play their own session judged legal (`Relay::played`), and goes to
//! this bot as `(moved name play)`, as a built-in seat's would. Every
//! session of a table shares the table seed, so the deal and every shuffle
//! agree; the built-in seats' choices come from numbers of the session's
//! own, seeded from that seed and drawn in table order, so they agree too.

use super::{BuiltInPlayer, SexpSession};
use crate::games::dominion::seats::Relayed;
use crate::games::{Outgoing, ScriptError, Session};

/// Sets the built-in seats' numbers apart from the shuffles' (both come
/// from the table seed).
const CHOOSER_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

impl SexpSession {
    /// The session of the bot at seat `bot` (0-based) of a table of
    /// `players`, where the seats in `relayed` are other real bots. The
    /// remaining seats are built-in players, every one `builtin` (big money
    /// unless given), whatever seat the bot takes, so that every session of
    /// the table seats the same players.
    pub fn at_table(
        players: usize,
        bot: usize,
        seed: u64,
        relayed: &[usize],
        builtin: Option<BuiltInPlayer>,
    ) -> SexpSession {
        let mut session = SexpSession::new(players, bot, seed, builtin);
        session.built_ins = vec![builtin.unwrap_or(BuiltInPlayer::BigMoney); players];
        let others: Vec<usize> = relayed.iter().copied().filter(|&s| s != bot).collect();
        session.relayed = Relayed::new(players, &others);
        session.chooser = Some(fastrand::Rng::with_seed(seed ^ CHOOSER_SALT));
        session
    }

    /// Whether the next play is a relayed seat's.
    pub(super) fn relay_due(&self) -> bool {
        !self.is_over() && !self.move_due && self.relayed.at(self.game.current)
    }

    /// One play of the relayed seat whose turn it is, as its own session
    /// judged it; what this bot is told of it.
    pub(super) fn relayed_play(&mut self, choice: &str) -> Result<Outgoing, ScriptError> {
        let plays = Self::scripted_plays(choice)?;
        let [play] = plays[..] else {
            return Err(format!(
                "internal: a relayed play is one play, not `{choice}`"
            ).into());
        };
        let out = self.builtin_play(play)?;
        self.last_opponent = Some(play.to_string());
        Ok(out)
    }
}

impl crate::games::Relay for SexpSession {
    fn played(&self) -> Option<String> {
        self.played.map(|p| p.to_string())
    }

    fn awaits_relay(&self) -> bool {
        self.relay_due()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Relay;
    use crate::games::{EndResult, Next};
    use crate::scenario_model::Expect;
    use std::time::Duration;

    /// Plays a whole table in process (`games::table_tests::play_relayed`):
    /// each session's bot plays big money on its session's own state, and
    /// every play it makes is what its session relays.
    fn play_table(sessions: &mut [SexpSession]) {
        crate::games::table_tests::play_relayed(
            sessions,
            100_000,
            |_, s, rng| {
                BuiltInPlayer::BigMoney
                    .choose(&s.game, rng)
                    .to_string()
                    .into_bytes()
            },
            |_, reply, played| {
                assert_eq!(
                    played,
                    Some(String::from_utf8_lossy(reply).as_ref()),
                    "a legal play is relayed as made"
                );
            },
        );
    }

    #[test]
    fn a_relayed_play_is_the_seat_whose_turn_it_is_and_the_bot_hears_it() {
        let mut s = SexpSession::at_table(2, 0, 3, &[0, 1], None);
        let mut rng = fastrand::Rng::with_seed(1);
        // Seat 1 (the bot) first: its (move …), a play, and the turn's clean.
        assert!(!s.awaits_relay());
        let out = s.opponent("auto", &mut rng).unwrap();
        assert!(out[0].text.starts_with("(move "), "{}", out[0].text);
        let hand = s.game.hand().first().copied();
        let clean = crate::games::dominion_sexp::messages::Play::Clean(hand).to_string();
        s.judge(clean.as_bytes(), &Expect::LegalMove, Duration::ZERO)
            .unwrap();
        assert_eq!(s.played(), Some(clean));
        // Now seat 2's turn: a real bot's, so its play comes relayed.
        assert_eq!(s.game.current, 1);
        assert!(s.awaits_relay());
        assert_eq!(s.next(), Next::Opponent);
        let before = s.game.players[1].hand.clone();
        let out = s.opponent("(add copper)", &mut rng).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].text, "(moved bravo (add copper))");
        assert_eq!(out[0].replies, 0);
        assert_eq!(s.game.players[1].hand.len(), before.len() - 1);
        assert_eq!(s.game.coins, 1);
        assert_eq!(s.game.players[0].hand.len(), 5, "the bot's new hand is as drawn");
        // A play the relayed seat cannot make is protocheck's own fault.
        assert!(s.opponent("(add gold)", &mut rng).is_err());
    }

    #[test]
    fn every_session_of_a_table_ends_with_the_same_scores() {
        // Three real bots and one random built-in seat: its choices must be
        // the same in every session although the controller's numbers are
        // drawn in a different order by each.
        for seed in [1, 2, 3] {
            let mut sessions: Vec<SexpSession> = (0..3)
                .map(|bot| {
                    SexpSession::at_table(4, bot, seed, &[0, 1, 2], Some(BuiltInPlayer::RandomLegal))
                })
                .collect();
            play_table(&mut sessions);
            let endings: Vec<_> = sessions.iter().map(|s| s.ending().expect("over")).collect();
            for (bot, e) in endings.iter().enumerate() {
                assert_eq!(e.side, format!("seat {}", bot + 1));
                assert_eq!(e.score, endings[0].score, "seed {seed}");
                assert_eq!(e.position, endings[0].position, "seed {seed}");
                assert_eq!(e.score.len(), 4);
            }
            assert_eq!(sessions[0].game, sessions[1].game);
            assert_eq!(sessions[1].game, sessions[2].game);
            let won = endings
                .iter()
                .filter(|e| e.result != EndResult::Lost)
                .count();
            assert!(won <= 3, "{endings:?}");
        }
    }
}
