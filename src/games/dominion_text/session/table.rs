//! The session of one bot at a match table (docs/match.md): the same server
//! and rules as a single run, with the seats of the other real bots
//! relayed. What such a seat does reaches this session through `opponent`
//! as its own session read it (`Relay::played`): each reply to its
//! `play-turn` request, and its answer to militia's attack during another
//! seat's turn (its own session asks its bot; this one waits for the
//! answer). Each is applied with the same recovery as at the seat's own
//! session, so a reply that was only warned about plays out alike
//! everywhere. Every session of a table shares the table seed, so the deal,
//! every shuffle, militia's random discards and the built-in seats' choices
//! (the session's own numbers, drawn in table order) agree.
//!
//! The relay's notation: a turn play as the bot's reply words it
//! (`action militia`, `buy silver gold`, `pass`), `malformed` for a
//! `play-turn` reply the grammar rejected; an attack answer as
//! `discard <cards>`, `reaction moat`, or `no-answer` for one the grammar
//! rejected.

use super::flow::line;
use super::{Due, Stage, TextSession};
use crate::games::dominion::Card;
use crate::games::dominion::kingdom::AttackReply;
use crate::games::dominion::seats::Relayed;
use crate::games::dominion_text::grammar::{Outcome, Reply};
use crate::games::dominion_text::players::{BuiltInPlayer, TurnPlay};
use crate::games::{Outgoing, ScriptError, Session};

/// What a reply to `due` did, in the relay's notation (`None`: a handshake
/// reply, or a blank line, which does nothing at the table).
pub(super) fn notation(judgement: &crate::games::dominion_text::grammar::Judgement, due: Due) -> Option<String> {
    let outcome = &judgement.outcome;
    let list = |cards: &[Card]| cards.iter().map(|c| format!(" {c}")).collect::<String>();
    match (due, outcome) {
        (Due::Name | Due::Version, _) | (_, Outcome::Ignored) => None,
        (Due::PlayTurn, Outcome::Reply(Reply::Pass)) => Some(TurnPlay::Pass.to_string()),
        (Due::PlayTurn, Outcome::Reply(Reply::Buy(cards))) => {
            Some(TurnPlay::Buy(cards.clone()).to_string())
        }
        (Due::PlayTurn, Outcome::Reply(Reply::Action { card, args })) => {
            Some(TurnPlay::Action(*card, args.clone()).to_string())
        }
        (Due::PlayTurn, _) => Some("malformed".into()),
        (Due::Attack, Outcome::Reply(Reply::Discard(cards))) => {
            Some(format!("discard{}", list(cards)))
        }
        (Due::Attack, Outcome::Reply(Reply::ReactionMoat)) => Some("reaction moat".into()),
        (Due::Attack, _) => Some("no-answer".into()),
    }
}

fn cards(words: &[&str], choice: &str) -> Result<Vec<Card>, ScriptError> {
    words
        .iter()
        .map(|w| {
            Card::from_lowercase_name(w)
                .ok_or_else(|| {
                    format!("internal: `{w}` in the relayed `{choice}` is not a card").into()
                })
        })
        .collect()
}

impl TextSession {
    /// The session of the bot at seat `bot` (0-based) of a table of
    /// `players`, where the seats in `relayed` are other real bots. The
    /// remaining seats are built-in players, `builtin` when given, else
    /// engine at seats 1 and 3 and militia at seats 2 and 4 whatever seat
    /// the bot takes, so that every session of the table seats the same
    /// players.
    pub fn at_table(
        players: usize,
        bot: usize,
        seed: u64,
        relayed: &[usize],
        builtin: Option<BuiltInPlayer>,
    ) -> TextSession {
        let mut session = TextSession::new(players, bot, seed, builtin);
        session.built_ins = (0..players)
            .map(|seat| {
                builtin.unwrap_or(if seat % 2 == 1 {
                    BuiltInPlayer::Militia
                } else {
                    BuiltInPlayer::Engine
                })
            })
            .collect();
        let others: Vec<usize> = relayed.iter().copied().filter(|&s| s != bot).collect();
        session.relayed = Relayed::new(players, &others);
        session
    }

    /// The relayed seat whose play or attack answer comes next, if one does.
    fn relayed_seat(&self) -> Option<usize> {
        if self.is_over()
            || self.due.is_some()
            || !self.planned.is_empty()
            || self.stage != Stage::Turns
        {
            return None;
        }
        match self.attacks.front() {
            Some(&q) => (self.relayed.at(q) && self.game.attack_discard_count(q).is_some())
                .then_some(q),
            None => self
                .relayed
                .at(self.game.current)
                .then_some(self.game.current),
        }
    }

    pub(super) fn relay_due(&self) -> bool {
        self.relayed_seat().is_some()
    }

    /// Applies what the relayed seat did, then moves the built-in seats on
    /// as after any play; what this bot is told.
    pub(super) fn relayed_play(
        &mut self,
        choice: &str,
        rng: &mut fastrand::Rng,
    ) -> Result<Vec<Outgoing>, ScriptError> {
        let Some(seat) = self.relayed_seat() else {
            return Err("internal: no relayed seat is to act".into());
        };
        let words: Vec<&str> = choice.split_ascii_whitespace().collect();
        let mut out = Vec::new();
        if self.attacks.is_empty() {
            let play = match words.as_slice() {
                ["pass"] => Some(TurnPlay::Pass),
                ["buy", rest @ ..] => Some(TurnPlay::Buy(cards(rest, choice)?)),
                ["action", card, rest @ ..] => Some(TurnPlay::Action(
                    cards(&[card], choice)?[0],
                    cards(rest, choice)?,
                )),
                ["malformed"] => None,
                _ => {
                    return Err(format!(
                        "internal: `{choice}` is not a relayed play of seat {}",
                        seat + 1
                    ).into());
                }
            };
            match play {
                Some(play) => {
                    self.apply_play(&play, &mut out);
                }
                None => {
                    self.malformed_turn_reply(&mut out);
                }
            }
        } else {
            let discards;
            let reply = match words.as_slice() {
                ["discard", rest @ ..] => {
                    discards = cards(rest, choice)?;
                    Some(AttackReply::Discard(&discards))
                }
                ["reaction", "moat"] => Some(AttackReply::RevealMoat),
                ["no-answer"] => None,
                _ => {
                    return Err(format!(
                        "internal: `{choice}` is not a relayed attack answer of seat {}",
                        seat + 1
                    ).into());
                }
            };
            self.attacks.pop_front();
            let outcome = self.game.resolve_attack(seat, reply, &mut self.shuffler);
            self.attack_lines(seat, outcome.revealed_moat, outcome.discarded, &mut out);
            if self.attacks.is_empty() && self.game.current == self.bot {
                // The bot's own militia: its next request follows.
                out.push(line(self.play_turn()));
                self.due = Some(Due::PlayTurn);
            }
        }
        let mut plays = Vec::new();
        self.advance(rng, &mut out, &mut plays, false);
        self.last_opponent = Some(choice.to_string());
        Ok(out)
    }
}

impl crate::games::Relay for TextSession {
    fn played(&self) -> Option<String> {
        self.played.clone()
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

    /// The reply a correct bot at `s`'s seat gives to what is due: the
    /// handshake, a militia player's turn plays, the built-in attack answer.
    fn bot_reply(s: &TextSession, rng: &mut fastrand::Rng) -> String {
        let seat = s.bot + 1;
        match s.due.expect("a reply is due") {
            Due::Name => format!("player player{seat} bot"),
            Due::Version => format!("player player{seat} version 1"),
            Due::PlayTurn => format!("play-reply {}", BuiltInPlayer::Militia.choose(&s.game, rng)),
            Due::Attack => {
                // Unlike a built-in seat (its cheapest cards): the last
                // ones, so that an answer not taken from the relay shows.
                let hand = &s.game.players[s.bot].hand;
                let n = s.game.attack_discard_count(s.bot).expect("attacked");
                let discard = &hand[hand.len() - n..];
                format!(
                    "play-reply discard{}",
                    discard.iter().map(|c| format!(" {c}")).collect::<String>()
                )
            }
        }
    }

    /// Plays a whole table in process (`games::table_tests::play_relayed`).
    /// Returns how many attack answers were relayed.
    fn play_table(sessions: &mut [TextSession]) -> usize {
        let mut attack_answers = 0;
        crate::games::table_tests::play_relayed(
            sessions,
            200_000,
            |_, s, rng| format!("{}\n", bot_reply(s, rng)).into_bytes(),
            |_, _, played| {
                attack_answers += usize::from(
                    played.is_some_and(|p| p.starts_with("discard") || p.starts_with("reaction")),
                );
            },
        );
        attack_answers
    }

    #[test]
    fn a_relayed_play_and_attack_answer_are_the_right_seats() {
        // Seat 1 is a real bot, relayed; this session's bot is at seat 2.
        let mut s = TextSession::at_table(2, 1, 5, &[0, 1], None);
        let mut rng = fastrand::Rng::with_seed(1);
        // The handshake asks this bot only; then seat 1 moves first.
        s.opponent("auto", &mut rng).unwrap();
        assert_eq!(s.due, Some(Due::Name));
        s.judge(b"player player2 bot\n", &Expect::LegalMove, Duration::ZERO).unwrap();
        let judged = s.judge(b"player player2 version 1\n", &Expect::LegalMove, Duration::ZERO).unwrap();
        assert!(judged.violations.is_empty());
        assert_eq!(s.played(), None, "the handshake is no play");
        assert_eq!(s.next(), Next::Opponent);
        if !s.awaits_relay() {
            s.opponent("auto", &mut rng).unwrap();
        }
        assert!(s.awaits_relay(), "seat 1's turn is a real bot's");
        // Seat 1 plays militia (given a hand with it): this bot is attacked.
        s.game.players[0].hand = vec![Card::Militia, Card::Copper, Card::Copper, Card::Estate, Card::Estate];
        let out = s.opponent("action militia", &mut rng).unwrap();
        let texts: Vec<&str> = out.iter().map(|o| o.text.as_str()).collect();
        assert!(texts.last().unwrap().starts_with("play-request attack discard 2"), "{texts:?}");
        assert_eq!(s.due, Some(Due::Attack));
        assert_eq!(s.game.current, 0, "still seat 1's turn");
        assert_eq!(s.game.play_area, [Card::Militia], "seat 1 played it");
        // This bot answers; then seat 1's next play comes relayed again.
        let hand = s.game.players[1].hand.clone();
        let reply = format!("play-reply discard {} {}\n", hand[0], hand[1]);
        s.judge(reply.as_bytes(), &Expect::LegalMove, Duration::ZERO).unwrap();
        assert_eq!(s.played(), Some(format!("discard {} {}", hand[0], hand[1])));
        assert_eq!(s.game.players[1].hand.len(), 3);
        if !s.awaits_relay() {
            s.opponent("auto", &mut rng).unwrap();
        }
        assert!(s.awaits_relay());
        let out = s.opponent("buy silver", &mut rng).unwrap();
        assert!(out.iter().any(|o| o.text == "player1 gained silver"), "{out:?}");
        assert_eq!(s.game.current, 1, "this bot's turn");
        assert!(!s.awaits_relay());
        // Something no seat could have sent is protocheck's own fault.
        let mut other = TextSession::at_table(2, 1, 5, &[0, 1], None);
        other.stage = Stage::Turns;
        assert!(other.opponent("discard copper", &mut rng).is_err());
    }

    #[test]
    fn every_session_of_a_table_ends_with_the_same_scores() {
        // Three real bots and one built-in militia seat: attacks go both
        // ways, answered by real bots through the relay.
        let mut relayed_answers = 0;
        for seed in [1, 2, 3] {
            let mut sessions: Vec<TextSession> = (0..3)
                .map(|bot| TextSession::at_table(4, bot, seed, &[0, 1, 2], None))
                .collect();
            relayed_answers += play_table(&mut sessions);
            let endings: Vec<_> = sessions.iter().map(|s| s.ending().expect("over")).collect();
            for (bot, e) in endings.iter().enumerate() {
                assert_eq!(e.side, format!("seat {}", bot + 1));
                assert_eq!(e.score, endings[0].score, "seed {seed}");
                assert_eq!(e.position, endings[0].position, "seed {seed}");
            }
            assert_eq!(sessions[0].game, sessions[1].game);
            assert_eq!(sessions[1].game, sessions[2].game);
            let winners = sessions[0].game.winners();
            for (bot, e) in endings.iter().enumerate() {
                let won = winners.contains(&bot);
                let expected = match (won, winners.len()) {
                    (true, 1) => EndResult::Won,
                    (true, _) => EndResult::Drew,
                    (false, _) => EndResult::Lost,
                };
                assert_eq!(e.result, expected, "{winners:?}");
            }
        }
        assert!(relayed_answers > 0, "no real bot was ever attacked");
    }
}
